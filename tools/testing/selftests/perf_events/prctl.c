// SPDX-License-Identifier: GPL-2.0
/*
 * prctl(PR_TASK_PERF_EVENTS_DISABLE / PR_TASK_PERF_EVENTS_ENABLE).
 *
 * In 6.1 these walk current->perf_event_list: the events the calling thread
 * OPENED (it is their owner), whatever they are attached to.  Covers: the
 * caller's own events freeze (count and time_enabled) and resume; ENABLE
 * also turns on events that were opened disabled, and whole groups; events
 * the caller opened on another task and per-CPU events it opened are
 * affected; the inherited copies in children are disabled with their
 * parent event; events attached to the caller but opened by another process
 * are NOT affected, nor events opened by another thread of the same
 * process, nor a forked child's prctl on fds it merely inherited; an
 * ioctl ENABLE after a prctl DISABLE re-enables just that event; extra
 * prctl arguments are ignored (return 0).
 */
#define _GNU_SOURCE
#include <pthread.h>
#include <unistd.h>
#include <sys/prctl.h>

#include "../kselftest_harness.h"
#include "perfev.h"

#define RF_TIMES	(PERF_FORMAT_TOTAL_TIME_ENABLED | PERF_FORMAT_TOTAL_TIME_RUNNING)

static int open_pf(pid_t pid, int cpu, bool disabled, bool inherit, int group_fd)
{
	struct perf_event_attr attr;

	perfev_attr_init(&attr, PERF_TYPE_SOFTWARE, PERF_COUNT_SW_PAGE_FAULTS);
	attr.read_format = RF_TIMES;
	attr.disabled = disabled;
	attr.inherit = inherit;
	return perfev_open(&attr, pid, cpu, group_fd, 0);
}

static int task_disable(void)
{
	return prctl(PR_TASK_PERF_EVENTS_DISABLE, 0, 0, 0, 0);
}

static int task_enable(void)
{
	return prctl(PR_TASK_PERF_EVENTS_ENABLE, 0, 0, 0, 0);
}

static void touch_100(void *arg)
{
	if (perfev_touch_pages(100))
		_exit(3);
}

static void disable_then_touch(void *arg)
{
	if (task_disable())
		_exit(4);
	touch_100(arg);
}

TEST(disable_freezes_own_event_enable_resumes)
{
	struct perfev_value v1, v2, v3;
	int fd;

	fd = open_pf(0, -1, false, false, -1);
	ASSERT_GE(fd, 0);
	ASSERT_EQ(0, perfev_touch_pages(32));
	ASSERT_EQ(0, task_disable());
	ASSERT_EQ(0, perfev_read_value(fd, &v1));
	EXPECT_GE(v1.value, 32ULL);
	ASSERT_EQ(0, perfev_touch_pages(64));
	usleep(2000);
	ASSERT_EQ(0, perfev_read_value(fd, &v2));
	EXPECT_EQ(v1.value, v2.value);
	EXPECT_EQ(v1.enabled, v2.enabled);	/* time_enabled stops too */
	EXPECT_EQ(v1.running, v2.running);
	ASSERT_EQ(0, task_disable());		/* again: still 0 */
	ASSERT_EQ(0, task_enable());
	ASSERT_EQ(0, perfev_touch_pages(64));
	ASSERT_EQ(0, perfev_read_value(fd, &v3));
	EXPECT_GE(v3.value, v2.value + 64);
	EXPECT_LT(v3.value, v2.value + 64 + 100);
	EXPECT_GT(v3.enabled, v2.enabled);
	close(fd);
}

TEST(enable_turns_on_events_opened_disabled)
{
	struct perfev_value v;
	int fd;

	fd = open_pf(0, -1, true, false, -1);
	ASSERT_GE(fd, 0);
	ASSERT_EQ(0, perfev_touch_pages(16));
	ASSERT_EQ(0, perfev_read_value(fd, &v));
	EXPECT_EQ(0ULL, v.value);
	EXPECT_EQ(0ULL, v.enabled);
	ASSERT_EQ(0, task_enable());
	ASSERT_EQ(0, perfev_touch_pages(32));
	ASSERT_EQ(0, task_disable());
	ASSERT_EQ(0, perfev_read_value(fd, &v));
	EXPECT_GE(v.value, 32ULL);
	EXPECT_LT(v.value, 32ULL + 100);
	EXPECT_GT(v.enabled, 0ULL);
	close(fd);
}

TEST(group_members_all_follow)
{
	struct perfev_value v;
	int fds[3], i;

	fds[0] = open_pf(0, -1, true, false, -1);
	ASSERT_GE(fds[0], 0);
	for (i = 1; i < 3; i++) {
		fds[i] = open_pf(0, -1, true, false, fds[0]);	/* siblings off too */
		ASSERT_GE(fds[i], 0);
	}
	/* Every member is owned by this thread: all get enabled. */
	ASSERT_EQ(0, task_enable());
	ASSERT_EQ(0, perfev_touch_pages(32));
	ASSERT_EQ(0, task_disable());
	for (i = 0; i < 3; i++) {
		ASSERT_EQ(0, perfev_read_value(fds[i], &v));
		EXPECT_GE(v.value, 32ULL);
		EXPECT_LT(v.value, 32ULL + 100);
	}
	for (i = 2; i >= 0; i--)
		close(fds[i]);
}

TEST(ioctl_enable_after_prctl_disable_is_per_event)
{
	struct perfev_value a1, b1, a2, b2;
	int a, b;

	a = open_pf(0, -1, false, false, -1);
	ASSERT_GE(a, 0);
	b = open_pf(0, -1, false, false, -1);
	ASSERT_GE(b, 0);
	ASSERT_EQ(0, task_disable());
	ASSERT_EQ(0, perfev_read_value(a, &a1));
	ASSERT_EQ(0, perfev_read_value(b, &b1));
	ASSERT_EQ(0, ioctl(b, PERF_EVENT_IOC_ENABLE, 0));
	ASSERT_EQ(0, perfev_touch_pages(64));
	ASSERT_EQ(0, perfev_read_value(a, &a2));
	ASSERT_EQ(0, perfev_read_value(b, &b2));
	EXPECT_EQ(a1.value, a2.value);
	EXPECT_GE(b2.value, b1.value + 64);
	close(b);
	close(a);
}

TEST(affects_event_opened_on_another_task)
{
	struct perfev_child child;
	struct perfev_value v0, v;
	int fd;

	ASSERT_EQ(0, perfev_child_start(&child, touch_100, NULL));
	fd = open_pf(child.pid, -1, false, false, -1);
	ASSERT_GE(fd, 0);
	/* The event is attached to the child but owned by this thread. */
	ASSERT_EQ(0, task_disable());
	/* (the child may still have been faulting its way into read()) */
	ASSERT_EQ(0, perfev_read_value(fd, &v0));
	ASSERT_EQ(0, perfev_child_go(&child));
	ASSERT_EQ(0, perfev_child_wait(&child));
	ASSERT_EQ(0, perfev_read_value(fd, &v));
	EXPECT_EQ(v0.value, v.value);
	EXPECT_EQ(v0.enabled, v.enabled);
	EXPECT_LT(v.value, 100ULL);
	close(fd);

	ASSERT_EQ(0, perfev_child_start(&child, touch_100, NULL));
	fd = open_pf(child.pid, -1, true, false, -1);
	ASSERT_GE(fd, 0);
	ASSERT_EQ(0, task_enable());
	ASSERT_EQ(0, perfev_child_go(&child));
	ASSERT_EQ(0, perfev_child_wait(&child));
	ASSERT_EQ(0, perfev_read_value(fd, &v));
	EXPECT_GE(v.value, 100ULL);
	EXPECT_LT(v.value, 100ULL + 300);
	close(fd);
}

TEST(target_prctl_does_not_affect_foreign_events)
{
	struct perfev_child child;
	struct perfev_value v;
	int fd;

	ASSERT_EQ(0, perfev_child_start(&child, disable_then_touch, NULL));
	fd = open_pf(child.pid, -1, false, false, -1);
	ASSERT_GE(fd, 0);
	/* The child's prctl only walks the events the child itself opened. */
	ASSERT_EQ(0, perfev_child_go(&child));
	ASSERT_EQ(0, perfev_child_wait(&child));
	ASSERT_EQ(0, perfev_read_value(fd, &v));
	EXPECT_GE(v.value, 100ULL);
	EXPECT_LT(v.value, 100ULL + 300);
	close(fd);
}

static void child_disable_only(void *arg)
{
	if (task_disable())
		_exit(4);
}

TEST(forked_child_prctl_does_not_affect_inherited_fd)
{
	struct perfev_child child;
	struct perfev_value v1, v2;
	int fd;

	fd = open_pf(0, -1, false, false, -1);	/* no inherit: child not counted */
	ASSERT_GE(fd, 0);
	/* The child shares the fd but is not the event's owner. */
	ASSERT_EQ(0, perfev_child_start(&child, child_disable_only, NULL));
	ASSERT_EQ(0, perfev_child_go(&child));
	ASSERT_EQ(0, perfev_child_wait(&child));
	ASSERT_EQ(0, perfev_read_value(fd, &v1));
	ASSERT_EQ(0, perfev_touch_pages(64));
	ASSERT_EQ(0, perfev_read_value(fd, &v2));
	EXPECT_GE(v2.value, v1.value + 64);
	EXPECT_GT(v2.enabled, v1.enabled);
	close(fd);
}

TEST(disable_reaches_inherited_child_events)
{
	struct perfev_child child;
	struct perfev_value v0, v1, v2;
	int fd;

	fd = open_pf(0, -1, false, true, -1);
	ASSERT_GE(fd, 0);
	ASSERT_EQ(0, perfev_child_start(&child, touch_100, NULL));
	ASSERT_EQ(0, task_disable());
	ASSERT_EQ(0, perfev_read_value(fd, &v0));
	ASSERT_EQ(0, perfev_child_go(&child));
	ASSERT_EQ(0, perfev_child_wait(&child));
	ASSERT_EQ(0, perfev_read_value(fd, &v1));
	EXPECT_EQ(v0.value, v1.value);	/* the child's copy was disabled too */

	ASSERT_EQ(0, perfev_child_start(&child, touch_100, NULL));
	ASSERT_EQ(0, task_enable());
	ASSERT_EQ(0, perfev_child_go(&child));
	ASSERT_EQ(0, perfev_child_wait(&child));
	ASSERT_EQ(0, task_disable());
	ASSERT_EQ(0, perfev_read_value(fd, &v2));
	EXPECT_GE(v2.value, v1.value + 100);
	EXPECT_LT(v2.value, v1.value + 100 + 400);
	close(fd);
}

TEST(affects_owned_per_cpu_event)
{
	struct perf_event_attr attr;
	struct perfev_value v1, v2, v3;
	int fd;

	perfev_attr_init(&attr, PERF_TYPE_SOFTWARE, PERF_COUNT_SW_CPU_CLOCK);
	attr.read_format = RF_TIMES;
	attr.disabled = 0;
	fd = perfev_open(&attr, -1, 0, -1, 0);
	ASSERT_GE(fd, 0) TH_LOG("per-CPU event on CPU 0: errno %d", errno);
	usleep(2000);
	ASSERT_EQ(0, task_disable());
	ASSERT_EQ(0, perfev_read_value(fd, &v1));
	EXPECT_GT(v1.value, 0ULL);
	usleep(5000);
	ASSERT_EQ(0, perfev_read_value(fd, &v2));
	EXPECT_EQ(v1.value, v2.value);
	EXPECT_EQ(v1.enabled, v2.enabled);
	ASSERT_EQ(0, task_enable());
	usleep(5000);
	ASSERT_EQ(0, perfev_read_value(fd, &v3));
	/* cpu-clock counts wall time on its CPU: at least the 5 ms slept */
	EXPECT_GE(v3.value, v2.value + 4000000);
	close(fd);
}

struct thread_arg {
	int fd;
	int ret;
};

static void *thread_disable(void *p)
{
	struct thread_arg *t = p;

	t->ret = task_disable();
	return NULL;
}

static void *thread_open_and_disable(void *p)
{
	struct thread_arg *t = p;

	/* attached to the main thread, owned by this one */
	t->fd = open_pf(getpid(), -1, false, false, -1);
	if (t->fd < 0) {
		t->ret = -1;
		return NULL;
	}
	t->ret = task_disable();
	return NULL;
}

TEST(per_thread_ownership)
{
	struct thread_arg t = { -1, -1 };
	struct perfev_value v1, v2;
	pthread_t th;
	int fd;

	fd = open_pf(0, -1, false, false, -1);
	ASSERT_GE(fd, 0);
	ASSERT_EQ(0, pthread_create(&th, NULL, thread_disable, &t));
	ASSERT_EQ(0, pthread_join(th, NULL));
	ASSERT_EQ(0, t.ret);
	ASSERT_EQ(0, perfev_read_value(fd, &v1));
	ASSERT_EQ(0, perfev_touch_pages(64));
	ASSERT_EQ(0, perfev_read_value(fd, &v2));
	EXPECT_GE(v2.value, v1.value + 64);	/* another thread's prctl: no effect */
	close(fd);

	/* An event on this thread that another thread opened and disabled... */
	ASSERT_EQ(0, pthread_create(&th, NULL, thread_open_and_disable, &t));
	ASSERT_EQ(0, pthread_join(th, NULL));
	ASSERT_GE(t.fd, 0);
	ASSERT_EQ(0, t.ret);
	ASSERT_EQ(0, perfev_read_value(t.fd, &v1));
	ASSERT_EQ(0, perfev_touch_pages(64));
	ASSERT_EQ(0, perfev_read_value(t.fd, &v2));
	EXPECT_EQ(v1.value, v2.value);
	/* ...is not re-enabled by this thread's prctl either. */
	ASSERT_EQ(0, task_enable());
	ASSERT_EQ(0, perfev_touch_pages(64));
	ASSERT_EQ(0, perfev_read_value(t.fd, &v2));
	EXPECT_EQ(v1.value, v2.value);
	ASSERT_EQ(0, ioctl(t.fd, PERF_EVENT_IOC_ENABLE, 0));
	ASSERT_EQ(0, perfev_touch_pages(64));
	ASSERT_EQ(0, perfev_read_value(t.fd, &v2));
	EXPECT_GE(v2.value, v1.value + 64);
	close(t.fd);
}

TEST(extra_arguments_ignored)
{
	struct perfev_value v1, v2;
	int fd;

	fd = open_pf(0, -1, false, false, -1);
	ASSERT_GE(fd, 0);
	/* 6.1 kernel/sys.c does not look at arg2..arg5 for these options. */
	ASSERT_EQ(0, prctl(PR_TASK_PERF_EVENTS_DISABLE, 1, 2, 3, 4));
	ASSERT_EQ(0, perfev_read_value(fd, &v1));
	ASSERT_EQ(0, perfev_touch_pages(32));
	ASSERT_EQ(0, perfev_read_value(fd, &v2));
	EXPECT_EQ(v1.value, v2.value);
	ASSERT_EQ(0, prctl(PR_TASK_PERF_EVENTS_ENABLE, ~0UL, ~0UL, ~0UL, ~0UL));
	ASSERT_EQ(0, perfev_touch_pages(32));
	ASSERT_EQ(0, perfev_read_value(fd, &v2));
	EXPECT_GE(v2.value, v1.value + 32);
	close(fd);
	/* with no events at all both succeed */
	EXPECT_EQ(0, task_disable());
	EXPECT_EQ(0, task_enable());
}

TEST_HARNESS_MAIN
