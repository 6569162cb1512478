// SPDX-License-Identifier: GPL-2.0
/*
 * PMUs of some CPUs only (pmu->filter_match, as the core and atom PMUs of
 * a hybrid x86 system): the testbed's "perfev_aux2" PMU, whose events with
 * config bit 0 ("even_cpus") exist only on even-numbered CPUs.
 *
 * Covers: such an event counts no time on an odd CPU and does on an even
 * one; a group with such a member waits as a whole on an odd CPU (its
 * software leader too); side-band records (COMM) reach a CPU-wide such
 * event only on a CPU where it exists.
 *
 * Every case SKIPs without the perfev_aux2 PMU or with fewer than two CPUs
 * (CPUs 0 and 1).
 */
#define _GNU_SOURCE
#include <sched.h>
#include <string.h>
#include <unistd.h>
#include <sys/ioctl.h>
#include <sys/prctl.h>

#include "../kselftest_harness.h"
#include "perfev.h"
#include "perfev_ring.h"

#define EVEN_CPUS	0x1

#define REQUIRE_PMU_AND_CPUS(type)						\
	do {									\
		cpu_set_t _set;							\
		type = perfev_pmu_type("perfev_aux2");				\
		if (type < 0)							\
			SKIP(return, "no perfev_aux2 PMU (CONFIG_PERF_TEST_AUX_PMU)"); \
		if (sched_getaffinity(0, sizeof(_set), &_set) ||		\
		    !CPU_ISSET(0, &_set) || !CPU_ISSET(1, &_set))		\
			SKIP(return, "needs CPUs 0 and 1");			\
	} while (0)

static int move_to(int cpu)
{
	cpu_set_t one;

	CPU_ZERO(&one);
	CPU_SET(cpu, &one);
	return sched_setaffinity(0, sizeof(one), &one);
}

static int open_timed(__u32 type, __u64 config, int group_fd)
{
	struct perf_event_attr attr;

	perfev_attr_init(&attr, type, config);
	attr.read_format = PERF_FORMAT_TOTAL_TIME_ENABLED | PERF_FORMAT_TOTAL_TIME_RUNNING;
	attr.disabled = group_fd < 0;
	return perfev_open(&attr, 0, -1, group_fd, 0);
}

/* Times of @fd (and of @other, a member of its group) over a burn on @cpu. */
static void run_on(int cpu, int fd, struct perfev_value *v, int other, struct perfev_value *ov)
{
	cpu_set_t orig;

	sched_getaffinity(0, sizeof(orig), &orig);
	move_to(cpu);
	ioctl(fd, PERF_EVENT_IOC_ENABLE, 0);
	perfev_burn(2000000);
	ioctl(fd, PERF_EVENT_IOC_DISABLE, 0);
	sched_setaffinity(0, sizeof(orig), &orig);
	perfev_read_value(fd, v);
	if (other >= 0)
		perfev_read_value(other, ov);
}

TEST(event_of_a_pmu_of_other_cpus_does_not_run_here)
{
	struct perfev_value odd, even;
	int type, fd;

	REQUIRE_PMU_AND_CPUS(type);
	fd = open_timed(type, EVEN_CPUS, -1);
	ASSERT_LE(0, fd);
	run_on(1, fd, &odd, -1, NULL);
	EXPECT_LT(0ULL, odd.enabled);
	EXPECT_EQ(0ULL, odd.running);
	run_on(0, fd, &even, -1, NULL);
	EXPECT_LT(odd.running, even.running);
	close(fd);

	/* without the bit the PMU is everywhere */
	fd = open_timed(type, 0, -1);
	ASSERT_LE(0, fd);
	run_on(1, fd, &odd, -1, NULL);
	EXPECT_LT(0ULL, odd.running);
	close(fd);
}

TEST(group_with_such_a_member_waits_whole)
{
	struct perfev_value lead, member;
	int type, leader, fd;

	REQUIRE_PMU_AND_CPUS(type);
	leader = open_timed(PERF_TYPE_SOFTWARE, PERF_COUNT_SW_TASK_CLOCK, -1);
	ASSERT_LE(0, leader);
	fd = open_timed(type, EVEN_CPUS, leader);
	ASSERT_LE(0, fd);
	run_on(1, leader, &lead, fd, &member);
	EXPECT_LT(0ULL, lead.enabled);
	EXPECT_EQ(0ULL, lead.running);
	EXPECT_EQ(0ULL, lead.value);
	EXPECT_EQ(0ULL, member.running);
	run_on(0, leader, &lead, fd, &member);
	EXPECT_LT(0ULL, lead.running);
	EXPECT_LT(0ULL, lead.value);
	EXPECT_LT(0ULL, member.running);
	close(fd);
	close(leader);
}

TEST(side_band_only_where_the_pmu_exists)
{
	struct perf_event_attr attr;
	struct perfev_ring ring[2];
	int type, fd[2], cpu;
	cpu_set_t orig;

	REQUIRE_PMU_AND_CPUS(type);
	for (cpu = 0; cpu < 2; cpu++) {
		perfev_attr_init(&attr, type, EVEN_CPUS);
		attr.disabled = 0;
		attr.comm = 1;
		fd[cpu] = perfev_open(&attr, -1, cpu, -1, 0);
		ASSERT_LE(0, fd[cpu]);
		ASSERT_EQ(0, perfev_ring_map(&ring[cpu], fd[cpu], 2, false));
	}
	sched_getaffinity(0, sizeof(orig), &orig);
	for (cpu = 0; cpu < 2; cpu++) {
		ASSERT_EQ(0, move_to(cpu));
		ASSERT_EQ(0, prctl(PR_SET_NAME, cpu ? "pfm_odd" : "pfm_even"));
	}
	sched_setaffinity(0, sizeof(orig), &orig);
	EXPECT_LE(1, perfev_ring_count(&ring[0], PERF_RECORD_COMM));
	EXPECT_EQ(0, perfev_ring_count(&ring[1], PERF_RECORD_COMM));
	for (cpu = 0; cpu < 2; cpu++) {
		perfev_ring_unmap(&ring[cpu]);
		close(fd[cpu]);
	}
}

TEST_HARNESS_MAIN
