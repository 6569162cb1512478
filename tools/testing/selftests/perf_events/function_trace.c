// SPDX-License-Identifier: GPL-2.0
/*
 * The function-trace event (tracepoint ftrace:function) and a task killed
 * while it holds such events.
 *
 * Covers: ftrace:function counts the kernel functions a task runs (getppid
 * calls raise it; user-space work alone barely does); a process that opened
 * a function-trace event and tracepoint events (the tracepoints inherited by
 * the children it forks, which fault pages in and exit) is killed with
 * SIGKILL in the middle of that work, several times, and the kernel is
 * checked afterwards: the process dies of the signal, a new function-trace
 * event still counts, task-clock still counts.  A kernel that oopses or
 * corrupts a stack on the way (the console's splats are judged too) fails.
 *
 * The kill case is the regression case of a ppc64le guest configuration with
 * 8 KiB kernel stacks (THREAD_SHIFT 13, what tinyconfig left when it was
 * PPC32 at first): every traced function adds the function tracer's and
 * perf's frames on top of the deepest kernel path, and exit_mmap() under a
 * function-trace event overran the stack on both cores.
 *
 * The function-trace event is not inherited: each one registers a tracer
 * of its own, and on x86_64 a second tracer makes the kernel rewrite every
 * traced call site in one loop that never reschedules (6.1's
 * ftrace_replace_code() through text_poke_queue()); with the parent's
 * event counting every function of that loop, a fork took over 21 s under
 * TCG on 6.1 (RCU stall; ours took 35 s a round and stalled on a slower
 * host).  Not our code and not what this test is for.
 */
#define _GNU_SOURCE
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "../kselftest_harness.h"
#include "perfev.h"

#define NR_KILLS	2

static int function_id(void)
{
	return perfev_tracepoint_id("ftrace", "function");
}

/* Open ftrace:function on self, disabled unless @enabled, maybe inherited. */
static int open_function(int id, int enabled, int inherit)
{
	struct perf_event_attr attr;

	perfev_attr_init(&attr, PERF_TYPE_TRACEPOINT, id);
	attr.disabled = !enabled;
	attr.inherit = inherit;
	return perfev_open(&attr, 0, -1, -1, 0);
}

static void do_getppid(int n)
{
	int i;

	for (i = 0; i < n; i++)
		syscall(__NR_getppid);
}

TEST(function_event_counts_kernel_functions)
{
	__u64 none, some;
	int id, fd;

	id = function_id();
	if (id < 0)
		SKIP(return, "no ftrace:function tracepoint (CONFIG_FUNCTION_TRACER)");
	fd = open_function(id, 0, 0);
	ASSERT_GE(fd, 0) TH_LOG("open ftrace:function: %s", strerror(errno));

	ASSERT_EQ(0, ioctl(fd, PERF_EVENT_IOC_ENABLE, 0));
	ASSERT_EQ(0, ioctl(fd, PERF_EVENT_IOC_DISABLE, 0));
	ASSERT_EQ(0, perfev_read_count(fd, &none));

	ASSERT_EQ(0, ioctl(fd, PERF_EVENT_IOC_RESET, 0));
	ASSERT_EQ(0, ioctl(fd, PERF_EVENT_IOC_ENABLE, 0));
	do_getppid(1000);
	ASSERT_EQ(0, ioctl(fd, PERF_EVENT_IOC_DISABLE, 0));
	ASSERT_EQ(0, perfev_read_count(fd, &some));
	/* each getppid() runs at least its syscall entry and exit functions */
	EXPECT_GE(some, none + 1000ULL)
		TH_LOG("%llu with 1000 getppid, %llu without",
		       (unsigned long long)some, (unsigned long long)none);
	close(fd);
}

/*
 * The victim: a function-trace event and tracepoint events (sched_switch
 * inherited) on itself, then children that fault pages in and exit, until it is killed.  Tells
 * @ready_fd once the events are open (1 byte: 'y', or 'n' if one failed).
 */
static void victim(int ready_fd, int fn_id)
{
	int sw_id = perfev_tracepoint_id("sched", "sched_switch");
	int enter_id = perfev_tracepoint_id("raw_syscalls", "sys_enter");
	struct perf_event_attr attr;
	char ok = 'y';
	int fd;

	setpgid(0, 0);
	if (open_function(fn_id, 1, 0) < 0)
		ok = 'n';
	if (sw_id >= 0) {
		perfev_attr_init(&attr, PERF_TYPE_TRACEPOINT, sw_id);
		attr.inherit = 1;
		attr.disabled = 0;
		if (perfev_open(&attr, 0, -1, -1, 0) < 0)
			ok = 'n';
	}
	if (enter_id >= 0) {
		perfev_attr_init(&attr, PERF_TYPE_TRACEPOINT, enter_id);
		attr.disabled = 0;
		fd = perfev_open(&attr, 0, -1, -1, 0);
		if (fd < 0)
			ok = 'n';
	}
	if (write(ready_fd, &ok, 1) != 1 || ok != 'y')
		_exit(1);
	close(ready_fd);
	for (;;) {
		pid_t pid = fork();

		if (pid == 0) {
			perfev_touch_pages(64);
			_exit(0);
		}
		perfev_touch_pages(32);
		if (pid > 0)
			waitpid(pid, NULL, 0);
	}
}

/* Every kernel function of the victims is traced: slow under TCG. */
FIXTURE(killed) {};
FIXTURE_SETUP(killed) {}
FIXTURE_TEARDOWN(killed) {}

static double seconds(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec + ts.tv_nsec / 1e9;
}

TEST_F_TIMEOUT(killed, task_with_function_and_tracepoint_events, 300)
{
	struct timespec delay = { .tv_sec = 0, .tv_nsec = 300 * 1000 * 1000 };
	__u64 count;
	int id, i, fd, status;
	double t0;

	id = function_id();
	if (id < 0)
		SKIP(return, "no ftrace:function tracepoint (CONFIG_FUNCTION_TRACER)");

	for (i = 0; i < NR_KILLS; i++) {
		int pfd[2];
		char ok = 0;
		pid_t pid;

		t0 = seconds();
		ASSERT_EQ(0, pipe(pfd));
		pid = fork();
		ASSERT_GE(pid, 0);
		if (pid == 0) {
			close(pfd[0]);
			victim(pfd[1], id);
		}
		close(pfd[1]);
		ASSERT_EQ(1, read(pfd[0], &ok, 1));
		close(pfd[0]);
		ASSERT_EQ('y', ok) TH_LOG("the victim could not open its events");
		/* let it fork, fault and exit under the events for a while */
		nanosleep(&delay, NULL);
		kill(-pid, SIGKILL);
		kill(pid, SIGKILL);
		ASSERT_EQ(pid, waitpid(pid, &status, 0));
		EXPECT_TRUE(WIFSIGNALED(status) && WTERMSIG(status) == SIGKILL)
			TH_LOG("round %d: victim status %#x", i, status);
		/* reap what the group left (its children are re-parented to init) */
		while (waitpid(-pid, NULL, WNOHANG) > 0)
			;
		TH_LOG("round %d: %.1f s from fork to reaped", i, seconds() - t0);
	}

	/* the kernel still traces and counts */
	fd = open_function(id, 0, 0);
	ASSERT_GE(fd, 0) TH_LOG("open ftrace:function after: %s", strerror(errno));
	ASSERT_EQ(0, ioctl(fd, PERF_EVENT_IOC_ENABLE, 0));
	do_getppid(100);
	ASSERT_EQ(0, ioctl(fd, PERF_EVENT_IOC_DISABLE, 0));
	ASSERT_EQ(0, perfev_read_count(fd, &count));
	EXPECT_GE(count, 100ULL);
	close(fd);

	fd = perfev_open_self(PERF_TYPE_SOFTWARE, PERF_COUNT_SW_TASK_CLOCK, -1);
	ASSERT_GE(fd, 0);
	ASSERT_EQ(0, ioctl(fd, PERF_EVENT_IOC_ENABLE, 0));
	perfev_burn(1000000);
	ASSERT_EQ(0, perfev_read_count(fd, &count));
	EXPECT_GT(count, 0ULL);
	close(fd);
}

TEST_HARNESS_MAIN
