// SPDX-License-Identifier: GPL-2.0
/*
 * attr.inherit, inherit_thread and inherit_stat.
 *
 * Covers: with inherit, children forked after the event was opened are
 * counted: reading the parent's fd includes live children (6.1 sums the
 * child events on read) and, after the child exits, its final count is
 * folded into the parent; several children add up; without inherit the
 * child's work is not counted; threads are counted with inherit and not
 * without; inherit_thread (5.13+) inherits only into CLONE_THREAD children
 * and needs inherit (EINVAL otherwise); inherit_stat counts like inherit;
 * inherit with PERF_FORMAT_GROUP is allowed and the group read includes the
 * children; inherit with PERF_SAMPLE_READ is EINVAL in 6.1.  A parent and
 * child switching to each other (whose contexts 6.1 swaps instead of
 * scheduling) count what both did, and an event opened on one of them
 * counts that task only.
 */
#define _GNU_SOURCE
#include <pthread.h>
#include <signal.h>
#include <unistd.h>
#include <sys/wait.h>

#include "../kselftest_harness.h"
#include "perfev.h"

#define CHILD_PAGES	512

static int open_pf_inherit(bool inherit, bool inherit_thread, bool inherit_stat)
{
	struct perf_event_attr attr;

	perfev_attr_init(&attr, PERF_TYPE_SOFTWARE, PERF_COUNT_SW_PAGE_FAULTS);
	attr.disabled = 0;
	attr.inherit = inherit;
	attr.inherit_thread = inherit_thread;
	attr.inherit_stat = inherit_stat;
	return perfev_open(&attr, 0, -1, -1, 0);
}

/* A non-inherited page-faults counter on @pid, enabled. */
static int open_pf_on(pid_t pid)
{
	struct perf_event_attr attr;

	perfev_attr_init(&attr, PERF_TYPE_SOFTWARE, PERF_COUNT_SW_PAGE_FAULTS);
	attr.disabled = 0;
	return perfev_open(&attr, pid, -1, -1, 0);
}

static void touch_child_pages(void *arg)
{
	perfev_touch_pages(CHILD_PAGES);
}

/* Fork a child that touches CHILD_PAGES pages and exits; 0 on success. */
static int run_child(void)
{
	struct perfev_child c;

	if (perfev_child_start(&c, touch_child_pages, NULL) || perfev_child_go(&c))
		return -1;
	return perfev_child_wait(&c);
}

static void *thread_touch(void *arg)
{
	perfev_touch_pages(CHILD_PAGES);
	return NULL;
}

static int run_thread(void)
{
	pthread_t t;

	if (pthread_create(&t, NULL, thread_touch, NULL))
		return -1;
	return pthread_join(t, NULL);
}

static __u64 read_close(int fd)
{
	__u64 count = ~0ULL;

	if (perfev_read_count(fd, &count))
		count = ~0ULL;
	close(fd);
	return count;
}

TEST(inherit_counts_exited_child)
{
	__u64 count;
	int fd;

	fd = open_pf_inherit(true, false, false);
	ASSERT_GE(fd, 0);
	ASSERT_EQ(0, run_child());
	count = read_close(fd);
	EXPECT_GE(count, (__u64)CHILD_PAGES);
	EXPECT_LT(count, (__u64)CHILD_PAGES + 2000);
}

TEST(inherit_sums_several_children)
{
	__u64 count;
	int fd, i;

	fd = open_pf_inherit(true, false, false);
	ASSERT_GE(fd, 0);
	for (i = 0; i < 3; i++)
		ASSERT_EQ(0, run_child());
	count = read_close(fd);
	EXPECT_GE(count, 3ULL * CHILD_PAGES);
	EXPECT_LT(count, 3ULL * CHILD_PAGES + 3000);
}

TEST(inherit_read_includes_live_child)
{
	int done[2], hold[2], fd, status;
	__u64 live, after;
	char ch = 0;
	pid_t pid;

	fd = open_pf_inherit(true, false, false);
	ASSERT_GE(fd, 0);
	ASSERT_EQ(0, pipe(done));
	ASSERT_EQ(0, pipe(hold));
	pid = fork();
	ASSERT_GE(pid, 0);
	if (pid == 0) {
		alarm(10);
		perfev_touch_pages(CHILD_PAGES);
		if (write(done[1], &ch, 1) != 1 || read(hold[0], &ch, 1) != 1)
			_exit(1);
		_exit(0);
	}
	ASSERT_EQ(1, read(done[0], &ch, 1));
	/* The child is still alive: its inherited event is summed on read. */
	ASSERT_EQ(0, perfev_read_count(fd, &live));
	ASSERT_EQ(1, write(hold[1], &ch, 1));
	ASSERT_EQ(pid, waitpid(pid, &status, 0));
	EXPECT_EQ(0, status);
	ASSERT_EQ(0, perfev_read_count(fd, &after));
	EXPECT_GE(live, (__u64)CHILD_PAGES);
	EXPECT_GE(after, live);
	EXPECT_LT(after, live + 1000);
	close(fd);
	close(done[0]);
	close(done[1]);
	close(hold[0]);
	close(hold[1]);
}

TEST(no_inherit_child_not_counted)
{
	__u64 count;
	int fd;

	fd = open_pf_inherit(false, false, false);
	ASSERT_GE(fd, 0);
	ASSERT_EQ(0, run_child());
	count = read_close(fd);
	/* Only the parent's own copy-on-write faults after fork(). */
	EXPECT_LT(count, (__u64)CHILD_PAGES / 2);
}

TEST(inherit_counts_threads)
{
	__u64 count;
	int fd;

	fd = open_pf_inherit(true, false, false);
	ASSERT_GE(fd, 0);
	ASSERT_EQ(0, run_thread());
	count = read_close(fd);
	EXPECT_GE(count, (__u64)CHILD_PAGES);
	EXPECT_LT(count, (__u64)CHILD_PAGES + 2000);
}

TEST(no_inherit_thread_not_counted)
{
	__u64 count;
	int fd;

	fd = open_pf_inherit(false, false, false);
	ASSERT_GE(fd, 0);
	ASSERT_EQ(0, run_thread());
	count = read_close(fd);
	EXPECT_LT(count, (__u64)CHILD_PAGES / 2);
}

TEST(inherit_thread_counts_threads_not_processes)
{
	__u64 after_fork, after_thread;
	int fd;

	fd = open_pf_inherit(true, true, false);
	ASSERT_GE(fd, 0);
	ASSERT_EQ(0, run_child());
	ASSERT_EQ(0, perfev_read_count(fd, &after_fork));
	EXPECT_LT(after_fork, (__u64)CHILD_PAGES / 2);
	ASSERT_EQ(0, run_thread());
	after_thread = read_close(fd);
	EXPECT_GE(after_thread, after_fork + CHILD_PAGES);
	EXPECT_LT(after_thread, after_fork + CHILD_PAGES + 2000);
}

TEST(inherit_thread_without_inherit_einval)
{
	int fd = open_pf_inherit(false, true, false);

	EXPECT_EQ(-1, fd);
	EXPECT_EQ(EINVAL, errno);
	if (fd >= 0)
		close(fd);
}

TEST(inherit_stat_counts_children)
{
	__u64 count;
	int fd;

	fd = open_pf_inherit(true, false, true);
	ASSERT_GE(fd, 0);
	ASSERT_EQ(0, run_child());
	ASSERT_EQ(0, run_thread());
	count = read_close(fd);
	EXPECT_GE(count, 2ULL * CHILD_PAGES);
	EXPECT_LT(count, 2ULL * CHILD_PAGES + 3000);
}

TEST(inherit_group_read_includes_children)
{
	const __u64 rf = PERF_FORMAT_GROUP | PERF_FORMAT_TOTAL_TIME_ENABLED;
	struct perf_event_attr attr;
	int leader, sib;
	__u64 buf[4];

	perfev_attr_init(&attr, PERF_TYPE_SOFTWARE, PERF_COUNT_SW_PAGE_FAULTS);
	attr.inherit = 1;
	attr.read_format = rf;
	/* 6.1 accepts inherit together with PERF_FORMAT_GROUP. */
	leader = perfev_open(&attr, 0, -1, -1, 0);
	ASSERT_GE(leader, 0);
	attr.disabled = 0;
	sib = perfev_open(&attr, 0, -1, leader, 0);
	ASSERT_GE(sib, 0);
	ASSERT_EQ(0, ioctl(leader, PERF_EVENT_IOC_ENABLE, 0));
	ASSERT_EQ(0, run_child());
	ASSERT_EQ(0, ioctl(leader, PERF_EVENT_IOC_DISABLE, 0));
	ASSERT_EQ(4 * 8, read(leader, buf, sizeof(buf)));
	EXPECT_EQ(2ULL, buf[0]);
	EXPECT_GT(buf[1], 0ULL);
	EXPECT_GE(buf[2], (__u64)CHILD_PAGES);
	EXPECT_GE(buf[3], (__u64)CHILD_PAGES);
	EXPECT_LT(buf[2], (__u64)CHILD_PAGES + 2000);
	close(sib);
	close(leader);
}

TEST(inherit_child_not_counted_while_disabled)
{
	__u64 count;
	int fd;

	fd = open_pf_inherit(true, false, false);
	ASSERT_GE(fd, 0);
	ASSERT_EQ(0, ioctl(fd, PERF_EVENT_IOC_DISABLE, 0));
	ASSERT_EQ(0, ioctl(fd, PERF_EVENT_IOC_RESET, 0));
	/* The child inherits a disabled event. */
	ASSERT_EQ(0, run_child());
	count = read_close(fd);
	EXPECT_EQ(0ULL, count);
}

/*
 * A forked child that ping-pongs with its parent on one CPU: both hold
 * copies of the same inherited events, which 6.1 (and our core) may swap
 * between the two tasks at each switch instead of scheduling them.
 */
struct twin {
	int to_child[2], to_parent[2];
	cpu_set_t saved;
	pid_t pid;
};

/* The child: 'p' is a ping, 't' touches CHILD_PAGES pages, 'q' exits. */
static void twin_child(struct twin *t)
{
	char c;

	alarm(30);
	while (read(t->to_child[0], &c, 1) == 1) {
		if (c == 'q')
			_exit(0);
		if (c == 't' && perfev_touch_pages(CHILD_PAGES))
			_exit(1);
		if (write(t->to_parent[1], &c, 1) != 1)
			_exit(1);
	}
	_exit(1);
}

static int twin_start(struct twin *t)
{
	if (pipe(t->to_child) || pipe(t->to_parent) || perfev_pin_here(&t->saved) < 0)
		return -1;
	t->pid = fork();
	if (t->pid < 0)
		return -1;
	if (t->pid == 0)
		twin_child(t);
	return 0;
}

/* Send @cmd @n times, each answered. */
static int twin_cmd(struct twin *t, char cmd, int n)
{
	char c;

	while (n--) {
		if (write(t->to_child[1], &cmd, 1) != 1 || read(t->to_parent[0], &c, 1) != 1)
			return -1;
	}
	return 0;
}

static int twin_stop(struct twin *t)
{
	char c = 'q';
	int status;

	if (write(t->to_child[1], &c, 1) != 1 || waitpid(t->pid, &status, 0) != t->pid)
		return -1;
	perfev_unpin(&t->saved);
	close(t->to_child[0]);
	close(t->to_child[1]);
	close(t->to_parent[0]);
	close(t->to_parent[1]);
	return WIFEXITED(status) && !WEXITSTATUS(status) ? 0 : -1;
}

/*
 * Whichever task ends up holding which copy, the parent's fd sums what
 * both did: page faults of each, and a switch per task per round trip.
 */
TEST(inherit_pingpong_twins_count_both_tasks)
{
	struct perf_event_attr attr;
	__u64 faults, switches;
	int pf, cs, rounds = 2000;
	struct twin t;

	pf = open_pf_inherit(true, false, false);
	ASSERT_GE(pf, 0);
	perfev_attr_init(&attr, PERF_TYPE_SOFTWARE, PERF_COUNT_SW_CONTEXT_SWITCHES);
	attr.disabled = 0;
	attr.inherit = 1;
	cs = perfev_open(&attr, 0, -1, -1, 0);
	ASSERT_GE(cs, 0);
	ASSERT_EQ(0, twin_start(&t));
	ASSERT_EQ(0, twin_cmd(&t, 'p', rounds));
	ASSERT_EQ(0, twin_cmd(&t, 't', 1));
	ASSERT_EQ(0, twin_cmd(&t, 'p', rounds));
	ASSERT_EQ(0, perfev_touch_pages(CHILD_PAGES));
	/* the child is still there: its copies are summed on read */
	ASSERT_EQ(0, perfev_read_count(pf, &faults));
	EXPECT_GE(faults, 2ULL * CHILD_PAGES);
	EXPECT_LT(faults, 2ULL * CHILD_PAGES + 2000);
	ASSERT_EQ(0, twin_stop(&t));
	/* and after it exited, folded */
	EXPECT_GE(read_close(pf), faults);
	switches = read_close(cs);
	EXPECT_GE(switches, 2ULL * 2 * rounds);
	EXPECT_LT(switches, 2ULL * 2 * rounds + 4000);
}

/*
 * An event opened on one of two twins while they switch to each other
 * counts that task alone: its context stops being a copy that may move to
 * the other task.
 */
TEST(event_opened_on_a_pingponging_twin_counts_that_task_only)
{
	__u64 on_child, on_parent;
	int inh, fc, fp;
	struct twin t;

	inh = open_pf_inherit(true, false, false);
	ASSERT_GE(inh, 0);
	ASSERT_EQ(0, twin_start(&t));
	ASSERT_EQ(0, twin_cmd(&t, 'p', 1000));
	fc = open_pf_on(t.pid);
	ASSERT_GE(fc, 0);
	fp = open_pf_on(0);
	ASSERT_GE(fp, 0);
	ASSERT_EQ(0, twin_cmd(&t, 'p', 1000));
	/* the child faults CHILD_PAGES, the parent four times as many */
	ASSERT_EQ(0, twin_cmd(&t, 't', 1));
	ASSERT_EQ(0, twin_cmd(&t, 'p', 1000));
	ASSERT_EQ(0, perfev_touch_pages(4 * CHILD_PAGES));
	ASSERT_EQ(0, twin_cmd(&t, 'p', 1000));
	ASSERT_EQ(0, perfev_read_count(fc, &on_child));
	ASSERT_EQ(0, perfev_read_count(fp, &on_parent));
	ASSERT_EQ(0, twin_stop(&t));
	EXPECT_GE(on_child, (__u64)CHILD_PAGES);
	EXPECT_LT(on_child, 2ULL * CHILD_PAGES);
	EXPECT_GE(on_parent, 4ULL * CHILD_PAGES);
	EXPECT_LT(on_parent, 5ULL * CHILD_PAGES);
	close(fc);
	close(fp);
	close(inh);
}

TEST(inherit_with_sample_read_einval)
{
	struct perf_event_attr attr;
	int fd;

	perfev_attr_init(&attr, PERF_TYPE_SOFTWARE, PERF_COUNT_SW_PAGE_FAULTS);
	attr.inherit = 1;
	attr.sample_period = 1000;
	attr.sample_type = PERF_SAMPLE_READ;
	fd = perfev_open(&attr, 0, -1, -1, 0);
	EXPECT_EQ(-1, fd);
	EXPECT_EQ(EINVAL, errno);
	if (fd >= 0)
		close(fd);
}

/*
 * 6.1 refuses inherit + PERF_SAMPLE_READ even with PERF_SAMPLE_TID; 6.12+
 * accepts that combination, so this test fails on newer kernels.
 */
TEST(inherit_with_sample_read_and_tid_einval)
{
	struct perf_event_attr attr;
	int fd;

	perfev_attr_init(&attr, PERF_TYPE_SOFTWARE, PERF_COUNT_SW_PAGE_FAULTS);
	attr.inherit = 1;
	attr.sample_period = 1000;
	attr.sample_type = PERF_SAMPLE_READ | PERF_SAMPLE_TID;
	fd = perfev_open(&attr, 0, -1, -1, 0);
	EXPECT_EQ(-1, fd);
	EXPECT_EQ(EINVAL, errno);
	if (fd >= 0)
		close(fd);
}

TEST_HARNESS_MAIN
