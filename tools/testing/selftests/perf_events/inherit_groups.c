// SPDX-License-Identifier: GPL-2.0
/*
 * Inherited groups of every PMU across fork, clone and exit, the way
 * "perf stat -e '{cycles,instructions}' -- make" uses them.
 *
 * Covers: a task holding an inherited group (or a lone inherited event)
 * of the hardware PMU, the test PMU (perfev_test) or software events
 * forks children, grandchildren and threads; every fork returns, the
 * children's work adds up into the group's counts, and each member
 * counts.  A fork that copies a sibling of a non-software PMU once
 * deadlocked in our core: the fork held the new context's mutex and
 * the sibling's event_init took it again (6.1 does not hold it).  A
 * group led by a software event with hardware members ("perf stat -e
 * '{task-clock,cycles,instructions}'") lives with its hardware PMU: its
 * copy must go there whole, the software members after the hardware one
 * included (fork copies a context's groups before it installs them).
 * Counts alone would not show a copy left with its leader's software
 * PMU (its hardware member still counts there); multiplexing does: the
 * child's copy must take turns with the other events of its PMU.
 *
 * Hardware variants SKIP without a hardware PMU, test-PMU ones without
 * perfev_test (the x86_64 boot without a PMU has it).
 */
#define _GNU_SOURCE
#include <pthread.h>
#include <sched.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <time.h>
#include <sys/wait.h>

#include "../kselftest_harness.h"
#include "perfev.h"

#define BURN		2000000UL
#define MAX_MEMBERS	3

enum ig_pmu { IG_HW, IG_TESTPMU, IG_SW };

struct ig_group {
	int fd[MAX_MEMBERS];
	int nr;
};

/*
 * Open @nr members on this task, inherited, exclude_kernel, the leader
 * reading the group with its times.  0, or -1 with errno (ENOENT when
 * the PMU is missing, for a SKIP).
 */
static int ig_open(struct ig_group *g, enum ig_pmu pmu, int nr, bool mixed, bool sw_leader)
{
	static const __u64 hw[] = { PERF_COUNT_HW_INSTRUCTIONS, PERF_COUNT_HW_CPU_CYCLES,
				    PERF_COUNT_HW_INSTRUCTIONS };
	static const __u64 sw[] = { PERF_COUNT_SW_TASK_CLOCK, PERF_COUNT_SW_CONTEXT_SWITCHES,
				    PERF_COUNT_SW_PAGE_FAULTS };
	struct perf_event_attr attr;
	int type = PERF_TYPE_HARDWARE, i;

	if (pmu == IG_HW && !perfev_have_hw()) {
		errno = ENOENT;
		return -1;
	}
	if (pmu == IG_TESTPMU) {
		type = perfev_pmu_type("perfev_test");
		if (type < 0) {
			errno = ENOENT;
			return -1;
		}
	}
	g->nr = 0;
	for (i = 0; i < nr; i++) {
		__u64 config = pmu == IG_TESTPMU ? 0x01ULL + i : pmu == IG_HW ? hw[i] : sw[i];
		int t = pmu == IG_SW ? PERF_TYPE_SOFTWARE : type;

		/* a software sibling in a hardware group */
		if (mixed && i == nr - 1) {
			t = PERF_TYPE_SOFTWARE;
			config = PERF_COUNT_SW_TASK_CLOCK;
		}
		/* or a software leader, then a member of @pmu, then software */
		if (sw_leader && i != 1) {
			t = PERF_TYPE_SOFTWARE;
			config = PERF_COUNT_SW_TASK_CLOCK;
		} else if (sw_leader && pmu == IG_HW) {
			config = PERF_COUNT_HW_INSTRUCTIONS;
		}
		perfev_attr_init(&attr, t, config);
		attr.inherit = 1;
		/* (the test PMU counts time, and refuses excludes) */
		attr.exclude_kernel = pmu != IG_TESTPMU;
		attr.exclude_hv = pmu != IG_TESTPMU;
		attr.disabled = i == 0;
		attr.read_format = PERF_FORMAT_GROUP | PERF_FORMAT_TOTAL_TIME_ENABLED |
				   PERF_FORMAT_TOTAL_TIME_RUNNING;
		g->fd[i] = perfev_open(&attr, 0, -1, i ? g->fd[0] : -1, 0);
		if (g->fd[i] < 0) {
			while (i--)
				close(g->fd[i]);
			return -1;
		}
		g->nr++;
	}
	return 0;
}

static void ig_close(struct ig_group *g)
{
	while (g->nr)
		close(g->fd[--g->nr]);
}

/* The group's values: nr, enabled, running, then one count per member. */
static int ig_read(struct ig_group *g, __u64 *count)
{
	__u64 buf[3 + MAX_MEMBERS];
	ssize_t want = (3 + g->nr) * sizeof(__u64);
	int i;

	if (read(g->fd[0], buf, sizeof(buf)) != want || buf[0] != (__u64)g->nr)
		return -1;
	for (i = 0; i < g->nr; i++)
		count[i] = buf[3 + i];
	return 0;
}

static void burn_exit(void)
{
	perfev_burn(BURN);
	_exit(0);
}

/* Fork a child that burns and exits (after forking a grandchild that does). */
static int fork_and_wait(bool grandchild)
{
	int status;
	pid_t pid;

	pid = fork();
	if (pid < 0)
		return -1;
	if (!pid) {
		if (grandchild && fork_and_wait(false))
			_exit(1);
		burn_exit();
	}
	if (waitpid(pid, &status, 0) != pid || !WIFEXITED(status))
		return -1;
	return WEXITSTATUS(status);
}

static void *thread_burn(void *arg)
{
	perfev_burn(BURN);
	return NULL;
}

FIXTURE(inherit_groups) {
	struct ig_group g;
};

FIXTURE_VARIANT(inherit_groups) {
	enum ig_pmu pmu;
	int members;
	bool mixed;
	bool sw_leader;		/* member 1 the only one of @pmu */
};

FIXTURE_VARIANT_ADD(inherit_groups, hw_group) { .pmu = IG_HW, .members = 2 };
FIXTURE_VARIANT_ADD(inherit_groups, hw_group_of_three) { .pmu = IG_HW, .members = 3 };
FIXTURE_VARIANT_ADD(inherit_groups, hw_alone) { .pmu = IG_HW, .members = 1 };
FIXTURE_VARIANT_ADD(inherit_groups, hw_with_sw_sibling) {
	.pmu = IG_HW, .members = 2, .mixed = true };
FIXTURE_VARIANT_ADD(inherit_groups, sw_leader_hw_member) {
	.pmu = IG_HW, .members = 3, .sw_leader = true };
FIXTURE_VARIANT_ADD(inherit_groups, testpmu_group) { .pmu = IG_TESTPMU, .members = 3 };
FIXTURE_VARIANT_ADD(inherit_groups, sw_leader_testpmu_member) {
	.pmu = IG_TESTPMU, .members = 3, .sw_leader = true };
FIXTURE_VARIANT_ADD(inherit_groups, testpmu_alone) { .pmu = IG_TESTPMU, .members = 1 };
FIXTURE_VARIANT_ADD(inherit_groups, sw_group) { .pmu = IG_SW, .members = 3 };

FIXTURE_SETUP(inherit_groups)
{
	if (ig_open(&self->g, variant->pmu, variant->members, variant->mixed,
		    variant->sw_leader)) {
		self->g.nr = 0;
		if (errno == ENOENT)
			SKIP(return, "PMU not available");
		ASSERT_TRUE(false) TH_LOG("opening the group: %s", strerror(errno));
	}
	ASSERT_EQ(0, ioctl(self->g.fd[0], PERF_EVENT_IOC_ENABLE, 0));
}

FIXTURE_TEARDOWN(inherit_groups)
{
	ig_close(&self->g);
}

/* Every member counted; member @insn, the instructions, at least @loops. */
static void expect_counts(struct __test_metadata *_metadata, enum ig_pmu pmu,
			  struct ig_group *g, unsigned long loops, int insn)
{
	__u64 count[MAX_MEMBERS];
	int i;

	ASSERT_EQ(0, ig_read(g, count));
	for (i = 0; i < g->nr; i++) {
		/* context switches and page faults of user work may be none */
		if (pmu == IG_SW && i)
			continue;
		EXPECT_GT(count[i], 0ULL) TH_LOG("member %d counted nothing", i);
	}
	if (pmu == IG_HW) {
		EXPECT_GE(count[insn], (__u64)loops)
			TH_LOG("instructions %llu < %lu", (unsigned long long)count[insn], loops);
	}
}

TEST_F_TIMEOUT(inherit_groups, fork_three_children, 60)
{
	int i;

	if (!self->g.nr)
		return;	/* skipped in setup (the 6.1 harness runs on) */

	for (i = 0; i < 3; i++)
		ASSERT_EQ(0, fork_and_wait(false));
	expect_counts(_metadata, variant->pmu, &self->g, 3 * BURN, variant->sw_leader ? 1 : 0);
}

TEST_F_TIMEOUT(inherit_groups, fork_grandchildren, 60)
{
	int i;

	if (!self->g.nr)
		return;	/* skipped in setup (the 6.1 harness runs on) */

	for (i = 0; i < 2; i++)
		ASSERT_EQ(0, fork_and_wait(true));
	expect_counts(_metadata, variant->pmu, &self->g, 4 * BURN, variant->sw_leader ? 1 : 0);
}

TEST_F_TIMEOUT(inherit_groups, clone_threads, 60)
{
	pthread_t t[4];
	int i;

	if (!self->g.nr)
		return;	/* skipped in setup (the 6.1 harness runs on) */

	for (i = 0; i < 4; i++)
		ASSERT_EQ(0, pthread_create(&t[i], NULL, thread_burn, NULL));
	for (i = 0; i < 4; i++)
		ASSERT_EQ(0, pthread_join(t[i], NULL));
	expect_counts(_metadata, variant->pmu, &self->g, 4 * BURN, variant->sw_leader ? 1 : 0);
}

#define CROWD		16	/* more than any emulated PMU's counters */
#define CHILD_CPU_NS	200000000ULL	/* 50 turns of a 4 ms interval */

static __u64 thread_cpu_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
	return ts.tv_sec * 1000000000ULL + ts.tv_nsec;
}

/*
 * Inherited events that fill the group's PMU: user-mode instructions, or
 * the test PMU's nanoseconds.  The number opened, or -1.
 */
static int open_crowd(enum ig_pmu pmu, int *fds)
{
	struct perf_event_attr attr;
	int i;

	if (pmu == IG_TESTPMU)
		perfev_attr_init(&attr, perfev_pmu_type("perfev_test"), 0x01);
	else
		perfev_attr_init(&attr, PERF_TYPE_HARDWARE, PERF_COUNT_HW_INSTRUCTIONS);
	attr.disabled = 0;
	attr.inherit = 1;
	attr.exclude_kernel = pmu != IG_TESTPMU;
	attr.exclude_hv = pmu != IG_TESTPMU;
	attr.read_format = PERF_FORMAT_TOTAL_TIME_ENABLED | PERF_FORMAT_TOTAL_TIME_RUNNING;
	for (i = 0; i < CROWD; i++) {
		fds[i] = perfev_open(&attr, 0, -1, -1, 0);
		if (fds[i] < 0) {
			while (i--)
				close(fds[i]);
			return -1;
		}
	}
	return CROWD;
}

/*
 * A forked child's copy of the group lives in its PMU's part of the
 * child's context and multiplexes there: with that PMU over-committed by
 * inherited single events, the copy ran some but not all of the time it
 * was enabled, as the parent's group does.  A copy kept in its software
 * leader's part (a fork that prepared each copy with its own PMU) would
 * run all along or never, whichever part goes on first.  The parent only
 * waits: the times read are the child's, folded in at its exit.
 */
TEST_F_TIMEOUT(inherit_groups, child_copy_takes_turns_with_its_pmu, 60)
{
	struct perfev_value v;
	__u64 buf[3 + MAX_MEMBERS];
	int crowd[CROWD], i, partial = 0, status;
	pid_t pid;

	if (!self->g.nr)
		return;	/* skipped in setup (the 6.1 harness runs on) */
	if (variant->pmu == IG_SW)
		SKIP(return, "software events do not multiplex");

	ASSERT_EQ(CROWD, open_crowd(variant->pmu, crowd)) TH_LOG("errno %d", errno);
	pid = fork();
	ASSERT_GE(pid, 0);
	if (!pid) {
		__u64 t0 = thread_cpu_ns();

		while (thread_cpu_ns() - t0 < CHILD_CPU_NS)
			perfev_burn(20000);
		_exit(0);
	}
	ASSERT_EQ(pid, waitpid(pid, &status, 0));
	ASSERT_TRUE(WIFEXITED(status) && !WEXITSTATUS(status));

	for (i = 0; i < CROWD; i++) {
		ASSERT_EQ(0, perfev_read_value(crowd[i], &v));
		if (v.running < v.enabled)
			partial++;
	}
	for (i = 0; i < CROWD; i++)
		close(crowd[i]);
	ASSERT_GT(partial, 0) TH_LOG("%d events on the PMU never multiplexed", CROWD);

	ASSERT_EQ((ssize_t)((3 + self->g.nr) * sizeof(__u64)),
		  read(self->g.fd[0], buf, sizeof(buf)));
	EXPECT_GT(buf[1], 0ULL);
	EXPECT_GT(buf[2], 0ULL) TH_LOG("the child's group never ran (enabled %llu)",
				       (unsigned long long)buf[1]);
	EXPECT_LT(buf[2], buf[1]) TH_LOG("the child's group ran all along (%llu ns)",
					 (unsigned long long)buf[1]);
}

TEST_HARNESS_MAIN
