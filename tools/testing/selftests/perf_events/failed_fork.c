// SPDX-License-Identifier: GPL-2.0
/*
 * A fork that fails after its inherited events were copied.
 *
 * clone(CLONE_PIDFD) with a pidfd pointer that cannot be written fails
 * with EFAULT late in copy_process(), after perf_event_init_task() gave the
 * child its copies of the parent's inherited events: the copies must go
 * with the child that never ran, and the task they point to is freed
 * without waiting for its reference count.
 *
 * Covers: a failed fork leaves the parent's inherited group counting and a
 * later fork's counts still fold in; failed forks racing the release of
 * the inherited events from another thread of the same process (the
 * release takes the copies off the parent's child list and frees them
 * itself): the fork's cleanup must wait for those copies, since their last
 * reference drops the child task.  Without that wait the debug kernel
 * reports a use-after-free in put_task_struct() (found by perf_fuzz); a
 * plain kernel corrupts freed memory silently, so this case proves itself
 * only under DEBUG=1 (KASAN), which make check's console judge reads.
 * The releasing thread runs at nice 19 beside busy threads so that it is
 * preempted between taking a copy off the list and dropping it, which
 * widens the window from microseconds to scheduler ticks.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <pthread.h>
#include <sched.h>
#include <signal.h>
#include <stdatomic.h>
#include <time.h>
#include <unistd.h>
#include <sys/mman.h>
#include <sys/resource.h>
#include <sys/syscall.h>
#include <sys/wait.h>

#include "../kselftest_harness.h"
#include "perfev.h"

#ifndef CLONE_PIDFD
#define CLONE_PIDFD	0x00001000
#endif

#define NR_EVENTS	8
#define RACE_SECONDS	10

/* A read-only page: copy_process() cannot store the pidfd there. */
static int *unwritable_page(void)
{
	void *p = mmap(NULL, sysconf(_SC_PAGESIZE), PROT_READ,
		       MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);

	return p == MAP_FAILED ? NULL : p;
}

/*
 * A fork that fails after copying the events: -1 with errno (EFAULT
 * expected).  A child that was made anyway exits at once and is reaped.
 */
static long failed_fork(int *pidfd)
{
	long ret;

	/* the parent_tid argument is the pidfd pointer on every arch */
	ret = syscall(SYS_clone, CLONE_PIDFD | SIGCHLD, 0, pidfd, 0, 0);
	if (ret == 0)
		_exit(0);
	if (ret > 0)
		waitpid(ret, NULL, 0);
	return ret;
}

static int open_inherited(__u32 type, __u64 config, int group_fd)
{
	struct perf_event_attr attr;

	perfev_attr_init(&attr, type, config);
	attr.inherit = 1;
	attr.disabled = 0;
	return perfev_open(&attr, 0, -1, group_fd, 0);
}

TEST(failed_fork_leaves_the_inherited_group_counting)
{
	__u64 before, after, faults0, faults1;
	int *bad = unwritable_page();
	int leader, member;
	pid_t pid;
	int status;

	ASSERT_NE(NULL, bad);
	leader = open_inherited(PERF_TYPE_SOFTWARE, PERF_COUNT_SW_TASK_CLOCK, -1);
	ASSERT_GE(leader, 0);
	member = open_inherited(PERF_TYPE_SOFTWARE, PERF_COUNT_SW_PAGE_FAULTS, leader);
	ASSERT_GE(member, 0);

	errno = 0;
	ASSERT_EQ(-1, failed_fork(bad));
	ASSERT_EQ(EFAULT, errno);

	ASSERT_EQ(0, perfev_read_count(leader, &before));
	perfev_burn(2000000);
	ASSERT_EQ(0, perfev_read_count(leader, &after));
	EXPECT_GT(after, before);

	/* a fork that works still inherits the group and folds it back */
	ASSERT_EQ(0, perfev_read_count(member, &faults0));
	pid = fork();
	ASSERT_GE(pid, 0);
	if (pid == 0)
		_exit(perfev_touch_pages(256) ? 1 : 0);
	ASSERT_EQ(pid, waitpid(pid, &status, 0));
	ASSERT_TRUE(WIFEXITED(status) && WEXITSTATUS(status) == 0);
	ASSERT_EQ(0, perfev_read_count(member, &faults1));
	EXPECT_GE(faults1 - faults0, 256ULL);

	close(member);
	close(leader);
	munmap(bad, sysconf(_SC_PAGESIZE));
}

/* ---- failed forks racing the release ----------------------------------- */

#define NR_FORKERS	2

struct race {
	int fds[NR_FORKERS][NR_EVENTS];
	atomic_int opened;	/* forkers whose fds of this round are open */
	atomic_int round;	/* bumped by the closer when it has closed them */
	atomic_bool stop;
	int bad_errno[NR_FORKERS];
	int failed[NR_FORKERS];
	int *bad;
};

struct forker {
	struct race *r;
	int id;
};

/*
 * Each round: open inherited events, then fork and fail until the closer
 * has released them (the events are the forking thread's own: a task's
 * events are not another thread's to inherit).
 */
static void *forker_fn(void *arg)
{
	struct forker *f = arg;
	struct race *r = f->r;
	int i, round;

	while (!atomic_load(&r->stop)) {
		round = atomic_load(&r->round);
		for (i = 0; i < NR_EVENTS; i++) {
			r->fds[f->id][i] = open_inherited(PERF_TYPE_SOFTWARE,
							  i ? PERF_COUNT_SW_DUMMY :
							  PERF_COUNT_SW_TASK_CLOCK, -1);
			if (r->fds[f->id][i] < 0) {
				r->bad_errno[f->id] = errno;
				atomic_store(&r->stop, true);
				return NULL;
			}
		}
		atomic_fetch_add(&r->opened, 1);
		do {
			errno = 0;
			if (failed_fork(r->bad) != -1 || errno != EFAULT) {
				r->bad_errno[f->id] = errno ?: -1;
				atomic_store(&r->stop, true);
				return NULL;
			}
			r->failed[f->id]++;
		} while (atomic_load(&r->round) == round && !atomic_load(&r->stop));
	}
	return NULL;
}

static void *spinner_fn(void *arg)
{
	struct race *r = arg;

	while (!atomic_load(&r->stop))
		perfev_burn(100000);
	return NULL;
}

TEST(failed_forks_race_the_release_of_their_parent_events)
{
	int nr_spin = 0, rounds = 0, failed = 0, i, j;
	struct forker forkers[NR_FORKERS];
	pthread_t forker[NR_FORKERS], spin[8];
	struct race r = { };
	time_t end;

	r.bad = unwritable_page();
	ASSERT_NE(NULL, r.bad);
	if (nr_spin > 8)
		nr_spin = 8;
	for (i = 0; i < nr_spin; i++)
		ASSERT_EQ(0, pthread_create(&spin[i], NULL, spinner_fn, &r));
	for (i = 0; i < NR_FORKERS; i++) {
		forkers[i].r = &r;
		forkers[i].id = i;
		ASSERT_EQ(0, pthread_create(&forker[i], NULL, forker_fn, &forkers[i]));
	}

	/* this thread closes: the lowest weight, preempted inside the release */
	setpriority(PRIO_PROCESS, syscall(SYS_gettid), 19);
	end = time(NULL) + RACE_SECONDS;
	while (time(NULL) < end && !atomic_load(&r.stop)) {
		if (atomic_load(&r.opened) != NR_FORKERS) {
			sched_yield();
			continue;
		}
		atomic_store(&r.opened, 0);
		for (i = 0; i < NR_FORKERS; i++)
			for (j = 0; j < NR_EVENTS; j++)
				close(r.fds[i][j]);
		atomic_fetch_add(&r.round, 1);
		rounds++;
	}
	atomic_store(&r.stop, true);
	for (i = 0; i < NR_FORKERS; i++) {
		pthread_join(forker[i], NULL);
		EXPECT_EQ(0, r.bad_errno[i]);
		failed += r.failed[i];
	}
	for (i = 0; i < nr_spin; i++)
		pthread_join(spin[i], NULL);
	ksft_print_msg("%d rounds, %d failed forks\n", rounds, failed);
	fflush(stdout);
	EXPECT_GT(rounds, 0);
	EXPECT_GE(failed, rounds);
	munmap(r.bad, sysconf(_SC_PAGESIZE));
}

TEST_HARNESS_MAIN
