// SPDX-License-Identifier: GPL-2.0
/*
 * Event groups (group_fd).
 *
 * Covers: a group is read atomically with PERF_FORMAT_GROUP (siblings counting
 * the same thing read the same value); the leader's ENABLE/DISABLE gates the
 * whole group, PERF_IOC_FLAG_GROUP applies an ioctl to every member; group_fd
 * rules at open: a non-perf or closed fd is EBADF, a sibling as group_fd, a
 * sibling on another task or CPU, a pinned or exclusive sibling, and an
 * inherit mismatch are EINVAL; closing the leader promotes the siblings to
 * stand-alone events that stay readable and keep counting (6.1); software
 * groups ignore 'exclusive'.  Hardware (SKIP without a PMU, written for
 * POWER9's 6 counters): software leader + hardware sibling (move_group),
 * a group larger than the PMU is EINVAL at open, a pinned group that cannot
 * be scheduled goes to error state and read() returns 0, an exclusive pinned
 * group keeps other hardware groups off the PMU.
 */
#define _GNU_SOURCE
#include <signal.h>
#include <string.h>
#include <unistd.h>

#include "../kselftest_harness.h"
#include "perfev.h"

#define MAX_HW_GROUP	32

static int open_ev(__u32 type, __u64 config, __u64 rf, bool disabled, int group_fd)
{
	struct perf_event_attr attr;

	perfev_attr_init(&attr, type, config);
	attr.read_format = rf;
	attr.disabled = disabled;
	return perfev_open(&attr, 0, -1, group_fd, 0);
}

static int open_pf(__u64 rf, bool disabled, int group_fd)
{
	return open_ev(PERF_TYPE_SOFTWARE, PERF_COUNT_SW_PAGE_FAULTS, rf, disabled, group_fd);
}

static void close_all(int *fds, int n)
{
	while (n-- > 0)
		if (fds[n] >= 0)
			close(fds[n]);
}

TEST(group_read_siblings_consistent)
{
	const __u64 rf = PERF_FORMAT_GROUP | PERF_FORMAT_TOTAL_TIME_ENABLED |
			 PERF_FORMAT_TOTAL_TIME_RUNNING;
	__u64 buf[8];
	int fds[3], i;

	fds[0] = open_pf(rf, true, -1);
	ASSERT_GE(fds[0], 0);
	for (i = 1; i < 3; i++) {
		fds[i] = open_pf(rf, false, fds[0]);
		ASSERT_GE(fds[i], 0);
	}
	ASSERT_EQ(0, ioctl(fds[0], PERF_EVENT_IOC_ENABLE, 0));
	ASSERT_EQ(0, perfev_touch_pages(64));
	ASSERT_EQ(0, ioctl(fds[0], PERF_EVENT_IOC_DISABLE, 0));
	ASSERT_EQ(6 * 8, read(fds[0], buf, sizeof(buf)));
	EXPECT_EQ(3ULL, buf[0]);
	EXPECT_EQ(buf[1], buf[2]);	/* software group: always running */
	EXPECT_GE(buf[3], 64ULL);
	EXPECT_LT(buf[3], 64ULL + 1000);
	/* Members scheduled together saw exactly the same faults. */
	EXPECT_EQ(buf[3], buf[4]);
	EXPECT_EQ(buf[3], buf[5]);
	close_all(fds, 3);
}

TEST(group_clock_siblings_read_together)
{
	const __u64 rf = PERF_FORMAT_GROUP | PERF_FORMAT_TOTAL_TIME_RUNNING;
	__u64 buf[8], diff = ~0ULL;
	int leader, sib, tries;

	/*
	 * Both start with the leader's enable: a sibling opened into a
	 * running group would count from its own open, which a debug kernel
	 * under TCG can make milliseconds later.
	 */
	leader = open_ev(PERF_TYPE_SOFTWARE, PERF_COUNT_SW_TASK_CLOCK, rf, true, -1);
	ASSERT_GE(leader, 0);
	sib = open_ev(PERF_TYPE_SOFTWARE, PERF_COUNT_SW_TASK_CLOCK, rf, false, leader);
	ASSERT_GE(sib, 0);
	/*
	 * Up to three runs: the host can stop a vCPU between the two clocks'
	 * updates at disable (2.8 ms of 12.6 once, under a full make check);
	 * a core that times siblings apart misses every time.
	 */
	for (tries = 0; tries < 3; tries++) {
		ASSERT_EQ(0, ioctl(leader, PERF_EVENT_IOC_RESET, PERF_IOC_FLAG_GROUP));
		ASSERT_EQ(0, ioctl(leader, PERF_EVENT_IOC_ENABLE, 0));
		perfev_burn(1000000);
		ASSERT_EQ(0, ioctl(leader, PERF_EVENT_IOC_DISABLE, 0));
		ASSERT_EQ(4 * 8, read(sib, buf, sizeof(buf)));
		EXPECT_EQ(2ULL, buf[0]);
		EXPECT_GT(buf[2], 0ULL);
		diff = buf[2] > buf[3] ? buf[2] - buf[3] : buf[3] - buf[2];
		/* Two task clocks in one group run over the same interval. */
		if (diff < buf[2] / 10 + 1000000)
			break;
		TH_LOG("run %d: task clocks %llu and %llu", tries,
		       (unsigned long long)buf[2], (unsigned long long)buf[3]);
	}
	EXPECT_LT(diff, buf[2] / 10 + 1000000);
	/* a count no larger than the group's running time (that adds up) */
	EXPECT_LE(buf[2], buf[1] + 1000000);
	close(sib);
	close(leader);
}

TEST(leader_enable_disable_controls_siblings)
{
	__u64 c1, c2, c3;
	int leader, sib;

	leader = open_pf(0, true, -1);
	ASSERT_GE(leader, 0);
	sib = open_pf(0, false, leader);	/* enabled, but its leader is not */
	ASSERT_GE(sib, 0);
	ASSERT_EQ(0, perfev_touch_pages(32));
	ASSERT_EQ(0, perfev_read_count(sib, &c1));
	EXPECT_EQ(0ULL, c1);
	ASSERT_EQ(0, ioctl(leader, PERF_EVENT_IOC_ENABLE, 0));
	ASSERT_EQ(0, perfev_touch_pages(32));
	ASSERT_EQ(0, ioctl(leader, PERF_EVENT_IOC_DISABLE, 0));
	ASSERT_EQ(0, perfev_read_count(sib, &c2));
	EXPECT_GE(c2, 32ULL);
	ASSERT_EQ(0, perfev_touch_pages(32));
	ASSERT_EQ(0, perfev_read_count(sib, &c3));
	EXPECT_EQ(c2, c3);
	close(sib);
	close(leader);
}

TEST(ioc_flag_group_applies_to_all_members)
{
	int fds[3], i;
	__u64 c;

	fds[0] = open_pf(0, true, -1);
	ASSERT_GE(fds[0], 0);
	for (i = 1; i < 3; i++) {
		fds[i] = open_pf(0, true, fds[0]);	/* siblings disabled too */
		ASSERT_GE(fds[i], 0);
	}
	/* Without the flag only the leader is enabled. */
	ASSERT_EQ(0, ioctl(fds[0], PERF_EVENT_IOC_ENABLE, 0));
	ASSERT_EQ(0, perfev_touch_pages(16));
	ASSERT_EQ(0, perfev_read_count(fds[1], &c));
	EXPECT_EQ(0ULL, c);
	ASSERT_EQ(0, perfev_read_count(fds[0], &c));
	EXPECT_GE(c, 16ULL);
	ASSERT_EQ(0, ioctl(fds[0], PERF_EVENT_IOC_ENABLE, PERF_IOC_FLAG_GROUP));
	ASSERT_EQ(0, perfev_touch_pages(16));
	ASSERT_EQ(0, ioctl(fds[0], PERF_EVENT_IOC_RESET, PERF_IOC_FLAG_GROUP));
	ASSERT_EQ(0, perfev_touch_pages(16));
	ASSERT_EQ(0, ioctl(fds[0], PERF_EVENT_IOC_DISABLE, PERF_IOC_FLAG_GROUP));
	for (i = 0; i < 3; i++) {
		ASSERT_EQ(0, perfev_read_count(fds[i], &c));
		EXPECT_GE(c, 16ULL);
		EXPECT_LT(c, 16ULL + 1000);
	}
	close_all(fds, 3);
}

TEST(group_fd_not_a_perf_event_ebadf)
{
	int p[2], fd;

	ASSERT_EQ(0, pipe(p));
	fd = open_pf(0, false, p[0]);
	EXPECT_EQ(-1, fd);
	EXPECT_EQ(EBADF, errno);
	close(p[0]);
	close(p[1]);
	/* p[0] is now closed. */
	fd = open_pf(0, false, p[0]);
	EXPECT_EQ(-1, fd);
	EXPECT_EQ(EBADF, errno);
}

TEST(group_fd_of_a_sibling_einval)
{
	int leader, sib, fd;

	leader = open_pf(0, true, -1);
	ASSERT_GE(leader, 0);
	sib = open_pf(0, false, leader);
	ASSERT_GE(sib, 0);
	fd = open_pf(0, false, sib);
	EXPECT_EQ(-1, fd);
	EXPECT_EQ(EINVAL, errno);
	close(sib);
	close(leader);
}

TEST(sibling_on_another_task_einval)
{
	struct perf_event_attr attr;
	struct perfev_child c;
	int leader, fd;

	leader = open_pf(0, true, -1);
	ASSERT_GE(leader, 0);
	ASSERT_EQ(0, perfev_child_start(&c, NULL, NULL));
	perfev_attr_init(&attr, PERF_TYPE_SOFTWARE, PERF_COUNT_SW_PAGE_FAULTS);
	fd = perfev_open(&attr, c.pid, -1, leader, 0);
	EXPECT_EQ(-1, fd);
	EXPECT_EQ(EINVAL, errno);
	if (fd >= 0)
		close(fd);
	/* And the other way round: a leader on the child, sibling on us. */
	fd = perfev_open(&attr, c.pid, -1, -1, 0);
	EXPECT_GE(fd, 0);
	if (fd >= 0) {
		EXPECT_EQ(-1, open_pf(0, false, fd));
		EXPECT_EQ(EINVAL, errno);
		close(fd);
	}
	perfev_child_go(&c);
	EXPECT_EQ(0, perfev_child_wait(&c));
	close(leader);
}

TEST(sibling_on_another_cpu_einval)
{
	struct perf_event_attr attr;
	int leader;

	perfev_attr_init(&attr, PERF_TYPE_SOFTWARE, PERF_COUNT_SW_PAGE_FAULTS);
	leader = perfev_open(&attr, 0, -1, -1, 0);
	ASSERT_GE(leader, 0);
	/* Leader on any CPU, sibling bound to CPU 0. */
	EXPECT_EQ(-1, perfev_open(&attr, 0, 0, leader, 0));
	EXPECT_EQ(EINVAL, errno);
	close(leader);

	leader = perfev_open(&attr, 0, 0, -1, 0);
	ASSERT_GE(leader, 0);
	EXPECT_EQ(-1, perfev_open(&attr, 0, -1, leader, 0));
	EXPECT_EQ(EINVAL, errno);
	if (perfev_nr_cpus() >= 2) {
		EXPECT_EQ(-1, perfev_open(&attr, 0, 1, leader, 0));
		EXPECT_EQ(EINVAL, errno);
	}
	close(leader);
}

TEST(pinned_or_exclusive_sibling_einval)
{
	struct perf_event_attr attr;
	int leader;

	leader = open_pf(0, true, -1);
	ASSERT_GE(leader, 0);
	perfev_attr_init(&attr, PERF_TYPE_SOFTWARE, PERF_COUNT_SW_PAGE_FAULTS);
	attr.pinned = 1;
	EXPECT_EQ(-1, perfev_open(&attr, 0, -1, leader, 0));
	EXPECT_EQ(EINVAL, errno);
	attr.pinned = 0;
	attr.exclusive = 1;
	EXPECT_EQ(-1, perfev_open(&attr, 0, -1, leader, 0));
	EXPECT_EQ(EINVAL, errno);
	close(leader);
}

TEST(sibling_inherit_mismatch_einval)
{
	struct perf_event_attr attr;
	int leader, fd;

	leader = open_pf(0, true, -1);
	ASSERT_GE(leader, 0);
	perfev_attr_init(&attr, PERF_TYPE_SOFTWARE, PERF_COUNT_SW_PAGE_FAULTS);
	attr.inherit = 1;
	EXPECT_EQ(-1, perfev_open(&attr, 0, -1, leader, 0));
	EXPECT_EQ(EINVAL, errno);
	close(leader);

	leader = perfev_open(&attr, 0, -1, -1, 0);
	ASSERT_GE(leader, 0);
	EXPECT_EQ(-1, open_pf(0, false, leader));
	EXPECT_EQ(EINVAL, errno);
	/* Matching inherit is fine. */
	fd = perfev_open(&attr, 0, -1, leader, 0);
	EXPECT_GE(fd, 0);
	if (fd >= 0)
		close(fd);
	close(leader);
}

TEST(closing_leader_siblings_stay_readable_and_count)
{
	const __u64 rf = PERF_FORMAT_GROUP | PERF_FORMAT_ID;
	__u64 buf[8], id, before;
	int leader, sib;

	leader = open_pf(rf, true, -1);
	ASSERT_GE(leader, 0);
	sib = open_pf(rf, false, leader);
	ASSERT_GE(sib, 0);
	ASSERT_EQ(0, ioctl(sib, PERF_EVENT_IOC_ID, &id));
	ASSERT_EQ(0, ioctl(leader, PERF_EVENT_IOC_ENABLE, 0));
	ASSERT_EQ(0, perfev_touch_pages(16));
	ASSERT_EQ(5 * 8, read(sib, buf, sizeof(buf)));
	EXPECT_EQ(2ULL, buf[0]);
	close(leader);

	/* The sibling is now a group of one: nr = 1, its own value and id. */
	ASSERT_EQ(3 * 8, read(sib, buf, sizeof(buf)));
	EXPECT_EQ(1ULL, buf[0]);
	EXPECT_GE(buf[1], 16ULL);
	EXPECT_EQ(id, buf[2]);
	before = buf[1];
	ASSERT_EQ(0, perfev_touch_pages(32));
	ASSERT_EQ(3 * 8, read(sib, buf, sizeof(buf)));
	EXPECT_GE(buf[1], before + 32);
	close(sib);
}

static void touch_and_exit(void *arg)
{
	perfev_touch_pages(64);
}

/*
 * The group of a task that exited stays whole: read() of the leader gives
 * every member with its final value, as before the exit (6.1); closing
 * the leader afterwards still leaves the sibling readable on its own.
 */
TEST(group_of_an_exited_task_reads_every_member)
{
	const __u64 rf = PERF_FORMAT_GROUP | PERF_FORMAT_ID;
	struct perf_event_attr attr;
	struct perfev_child c;
	__u64 buf[8], ids[2];
	int fds[2], i;

	ASSERT_EQ(0, perfev_child_start(&c, touch_and_exit, NULL));
	for (i = 0; i < 2; i++) {
		perfev_attr_init(&attr, PERF_TYPE_SOFTWARE, PERF_COUNT_SW_PAGE_FAULTS);
		attr.read_format = rf;
		attr.disabled = i == 0;
		fds[i] = perfev_open(&attr, c.pid, -1, i ? fds[0] : -1, 0);
		ASSERT_GE(fds[i], 0) TH_LOG("member %d errno %d", i, errno);
		ASSERT_EQ(0, ioctl(fds[i], PERF_EVENT_IOC_ID, &ids[i]));
	}
	ASSERT_EQ(0, ioctl(fds[0], PERF_EVENT_IOC_ENABLE, 0));
	ASSERT_EQ(0, perfev_child_go(&c));
	ASSERT_EQ(0, perfev_child_wait(&c));

	/* nr, then value and id of each member */
	ASSERT_EQ(5 * 8, read(fds[0], buf, sizeof(buf)));
	EXPECT_EQ(2ULL, buf[0]);
	EXPECT_GE(buf[1], 64ULL);
	EXPECT_EQ(ids[0], buf[2]);
	EXPECT_EQ(buf[1], buf[3]);
	EXPECT_EQ(ids[1], buf[4]);
	/* the sibling reads the same group */
	ASSERT_EQ(5 * 8, read(fds[1], buf, sizeof(buf)));
	EXPECT_EQ(2ULL, buf[0]);

	close(fds[0]);
	ASSERT_EQ(3 * 8, read(fds[1], buf, sizeof(buf)));
	EXPECT_EQ(1ULL, buf[0]);
	EXPECT_GE(buf[1], 64ULL);
	EXPECT_EQ(ids[1], buf[2]);
	close(fds[1]);
}

TEST(software_group_ignores_exclusive)
{
	const __u64 rf = PERF_FORMAT_TOTAL_TIME_ENABLED | PERF_FORMAT_TOTAL_TIME_RUNNING;
	struct perf_event_attr attr;
	struct perfev_value v;
	int excl, other;

	perfev_attr_init(&attr, PERF_TYPE_SOFTWARE, PERF_COUNT_SW_PAGE_FAULTS);
	attr.exclusive = 1;
	attr.pinned = 1;
	attr.disabled = 0;
	attr.read_format = rf;
	excl = perfev_open(&attr, 0, -1, -1, 0);
	ASSERT_GE(excl, 0);
	other = open_pf(rf, false, -1);
	ASSERT_GE(other, 0);
	ASSERT_EQ(0, perfev_touch_pages(16));
	ASSERT_EQ(0, ioctl(other, PERF_EVENT_IOC_DISABLE, 0));
	ASSERT_EQ(0, ioctl(excl, PERF_EVENT_IOC_DISABLE, 0));
	ASSERT_EQ(0, perfev_read_value(other, &v));
	EXPECT_GE(v.value, 16ULL);
	EXPECT_EQ(v.enabled, v.running);
	ASSERT_EQ(0, perfev_read_value(excl, &v));
	EXPECT_GE(v.value, 16ULL);
	EXPECT_EQ(v.enabled, v.running);
	close(other);
	close(excl);
}

/* Hardware: written for POWER9 (6 counters); SKIP without a PMU. */

static int open_hw(__u64 config, __u64 rf, int group_fd, bool pinned, bool exclusive)
{
	struct perf_event_attr attr;

	perfev_attr_init(&attr, PERF_TYPE_HARDWARE, config);
	attr.read_format = rf;
	attr.disabled = 0;
	attr.pinned = pinned;
	attr.exclusive = exclusive;
	return perfev_open(&attr, 0, -1, group_fd, 0);
}

/* Fill a group led by @leader with cycles siblings until the PMU refuses. */
static int fill_hw_group(int leader, int *fds, int *err)
{
	int n = 0, fd;

	*err = 0;
	while (n < MAX_HW_GROUP) {
		fd = open_hw(PERF_COUNT_HW_CPU_CYCLES, 0, leader, false, false);
		if (fd < 0) {
			*err = errno;
			break;
		}
		fds[n++] = fd;
	}
	return n;
}

TEST(hw_software_leader_hardware_sibling_move_group)
{
	const __u64 rf = PERF_FORMAT_GROUP;
	__u64 buf[4];
	int leader, sib;

	if (!perfev_have_hw())
		SKIP(return, "no hardware counters");
	leader = open_ev(PERF_TYPE_SOFTWARE, PERF_COUNT_SW_TASK_CLOCK, rf, true, -1);
	ASSERT_GE(leader, 0);
	/* The whole group moves to the hardware context. */
	sib = open_hw(PERF_COUNT_HW_INSTRUCTIONS, rf, leader, false, false);
	ASSERT_GE(sib, 0) TH_LOG("errno %d", errno);
	ASSERT_EQ(0, ioctl(leader, PERF_EVENT_IOC_ENABLE, 0));
	perfev_burn(1000000);
	ASSERT_EQ(0, ioctl(leader, PERF_EVENT_IOC_DISABLE, 0));
	ASSERT_EQ(3 * 8, read(leader, buf, sizeof(buf)));
	EXPECT_EQ(2ULL, buf[0]);
	EXPECT_GT(buf[1], 0ULL);
	EXPECT_GE(buf[2], 1000000ULL);	/* >= 1 instruction per loop */
	EXPECT_LT(buf[2], 1000000000ULL);
	close(sib);
	close(leader);
}

TEST(hw_hardware_leader_software_sibling)
{
	const __u64 rf = PERF_FORMAT_GROUP | PERF_FORMAT_TOTAL_TIME_ENABLED |
			 PERF_FORMAT_TOTAL_TIME_RUNNING;
	__u64 buf[8];
	int leader, sib;

	if (!perfev_have_hw())
		SKIP(return, "no hardware counters");
	leader = open_hw(PERF_COUNT_HW_INSTRUCTIONS, rf, -1, false, false);
	ASSERT_GE(leader, 0);
	/* A software sibling joins the hardware group's context. */
	sib = open_ev(PERF_TYPE_SOFTWARE, PERF_COUNT_SW_PAGE_FAULTS, rf, false, leader);
	ASSERT_GE(sib, 0);
	ASSERT_EQ(0, perfev_touch_pages(32));
	perfev_burn(1000000);
	ASSERT_EQ(0, ioctl(leader, PERF_EVENT_IOC_DISABLE, 0));
	ASSERT_EQ(5 * 8, read(sib, buf, sizeof(buf)));
	EXPECT_EQ(2ULL, buf[0]);
	EXPECT_LE(buf[2], buf[1]);
	EXPECT_GT(buf[2], 0ULL);
	EXPECT_GE(buf[3], 1000000ULL);
	EXPECT_GE(buf[4], 32ULL);
	EXPECT_LT(buf[4], 32ULL + 1000);
	close(sib);
	close(leader);
}

TEST(hw_group_larger_than_pmu_einval)
{
	int leader, fds[MAX_HW_GROUP], n, err;

	if (!perfev_have_hw())
		SKIP(return, "no hardware counters");
	leader = open_hw(PERF_COUNT_HW_CPU_CYCLES, 0, -1, false, false);
	ASSERT_GE(leader, 0);
	n = fill_hw_group(leader, fds, &err);
	/* POWER9 has 6 counters: a group of 8 can never be scheduled. */
	EXPECT_LT(n, MAX_HW_GROUP);
	EXPECT_GE(n, 1);
	EXPECT_EQ(EINVAL, err);
	close_all(fds, n);
	close(leader);
}

TEST(hw_unschedulable_pinned_group_reads_eof)
{
	int leader, fds[MAX_HW_GROUP], n, err, extra;
	__u64 buf[4];

	if (!perfev_have_hw())
		SKIP(return, "no hardware counters");
	/* A pinned group that uses every counter the PMU lets one group use. */
	leader = open_hw(PERF_COUNT_HW_CPU_CYCLES, 0, -1, true, false);
	ASSERT_GE(leader, 0);
	n = fill_hw_group(leader, fds, &err);
	ASSERT_LT(n, MAX_HW_GROUP);
	perfev_burn(100000);
	if (read(leader, buf, sizeof(buf)) == 0) {
		close_all(fds, n);
		close(leader);
		SKIP(return, "a full pinned group does not fit (counter used elsewhere)");
	}
	/* A second pinned event cannot be scheduled: error state, read gives EOF. */
	extra = open_hw(PERF_COUNT_HW_CPU_CYCLES, 0, -1, true, false);
	ASSERT_GE(extra, 0);
	perfev_burn(100000);
	EXPECT_EQ(0, read(extra, buf, sizeof(buf)));
	EXPECT_EQ(8, read(leader, buf, sizeof(buf)));
	EXPECT_GT(buf[0], 0ULL);
	close(extra);
	close_all(fds, n);
	close(leader);
}

TEST(hw_exclusive_pinned_group_keeps_others_off)
{
	const __u64 rf = PERF_FORMAT_TOTAL_TIME_ENABLED | PERF_FORMAT_TOTAL_TIME_RUNNING;
	struct perfev_value ve, vo;
	int excl, other;

	if (!perfev_have_hw())
		SKIP(return, "no hardware counters");
	excl = open_hw(PERF_COUNT_HW_CPU_CYCLES, rf, -1, true, true);
	ASSERT_GE(excl, 0);
	other = open_hw(PERF_COUNT_HW_INSTRUCTIONS, rf, -1, false, false);
	ASSERT_GE(other, 0);
	perfev_burn(1000000);
	ASSERT_EQ(0, ioctl(other, PERF_EVENT_IOC_DISABLE, 0));
	ASSERT_EQ(0, ioctl(excl, PERF_EVENT_IOC_DISABLE, 0));
	ASSERT_EQ(0, perfev_read_value(excl, &ve));
	ASSERT_EQ(0, perfev_read_value(other, &vo));
	EXPECT_GT(ve.value, 0ULL);
	EXPECT_GE(ve.running, ve.enabled - ve.enabled / 10);
	/* The flexible event never got on the PMU next to the exclusive one. */
	EXPECT_GT(vo.enabled, 0ULL);
	EXPECT_EQ(0ULL, vo.running);
	EXPECT_EQ(0ULL, vo.value);
	close(other);
	close(excl);
}

TEST_HARNESS_MAIN
