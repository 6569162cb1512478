// SPDX-License-Identifier: GPL-2.0
/*
 * cgroup events (PERF_FLAG_PID_CGROUP: pid is a cgroup directory fd, cpu a
 * CPU).
 *
 * Covers: a cgroup event counts only while a task of its cgroup runs on its
 * CPU, and its time_enabled is the time the cgroup ran there (not the wall
 * time since the open); moving the running task into and out of the cgroup
 * starts and stops the count at once; an event on a parent cgroup counts
 * the tasks of its descendants; all events of a group watch one cgroup
 * (EINVAL otherwise).  The fd checks of the open are in attr.c.
 *
 * Each test mounts a cgroup v1 hierarchy with the perf_event controller in
 * a private mount namespace, makes its cgroups under the root, pins itself
 * to one CPU and moves itself between them; it moves back, removes them and
 * unmounts (the controller returns to cgroup2) at the end.  Not cgroup2:
 * there the implicit perf_event controller reaches child cgroups only once
 * the root's controllers have been applied, which never happens in a guest
 * whose kernel has no other controller.
 */
#define _GNU_SOURCE
#include <fcntl.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mount.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "../kselftest_harness.h"
#include "perfev.h"

#define MS		1000000ULL
#define RF_TIMES	(PERF_FORMAT_TOTAL_TIME_ENABLED | PERF_FORMAT_TOTAL_TIME_RUNNING)

static __u64 thread_cpu_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
	return ts.tv_sec * 1000000000ULL + ts.tv_nsec;
}

/* Run on the CPU for @ns of this thread's CPU time. */
static void burn_cpu_ns(__u64 ns)
{
	__u64 end = thread_cpu_ns() + ns;

	while (thread_cpu_ns() < end)
		perfev_burn(10000);
}

FIXTURE(cg)
{
	char root[64];
	char a[96];		/* root/perfev-a */
	char child[128];	/* root/perfev-a/c */
	int root_fd, a_fd, child_fd;
	int cpu;
	cpu_set_t orig;
	bool ready;
};

/* Move this process into the cgroup directory @dir. */
static int move_to(const char *dir)
{
	char path[160];
	int fd, ok;

	snprintf(path, sizeof(path), "%s/cgroup.procs", dir);
	fd = open(path, O_WRONLY);
	if (fd < 0)
		return -1;
	ok = write(fd, "0", 1) == 1;
	close(fd);
	return ok ? 0 : -1;
}

FIXTURE_SETUP(cg)
{
	char tmpl[] = "/tmp/perfev-cgXXXXXX";

	self->ready = false;
	self->root_fd = -1;
	self->a_fd = -1;
	self->child_fd = -1;
	if (geteuid())
		SKIP(return, "needs root to make cgroups");
	if (unshare(CLONE_NEWNS) || mount(NULL, "/", NULL, MS_REC | MS_PRIVATE, NULL) ||
	    !mkdtemp(tmpl))
		SKIP(return, "no private mount namespace");
	strcpy(self->root, tmpl);
	if (mount("none", self->root, "cgroup", 0, "perf_event")) {
		rmdir(self->root);
		SKIP(return, "cannot mount a perf_event cgroup hierarchy (errno %d)", errno);
	}
	snprintf(self->a, sizeof(self->a), "%s/perfev-a.%d", self->root, getpid());
	snprintf(self->child, sizeof(self->child), "%s/c", self->a);
	ASSERT_EQ(0, mkdir(self->a, 0755));
	ASSERT_EQ(0, mkdir(self->child, 0755));
	self->root_fd = open(self->root, O_RDONLY | O_DIRECTORY);
	self->a_fd = open(self->a, O_RDONLY | O_DIRECTORY);
	self->child_fd = open(self->child, O_RDONLY | O_DIRECTORY);
	ASSERT_GE(self->child_fd, 0);
	self->cpu = perfev_pin_here(&self->orig);
	ASSERT_GE(self->cpu, 0);
	self->ready = true;
}

FIXTURE_TEARDOWN(cg)
{
	if (!self->ready)
		return;
	move_to(self->root);
	perfev_unpin(&self->orig);
	close(self->child_fd);
	close(self->a_fd);
	close(self->root_fd);
	rmdir(self->child);
	rmdir(self->a);
	umount(self->root);
	rmdir(self->root);
}

static int open_cgroup_clock(int cg_fd, int cpu, int group_fd)
{
	struct perf_event_attr attr;

	perfev_attr_init(&attr, PERF_TYPE_SOFTWARE, PERF_COUNT_SW_CPU_CLOCK);
	attr.read_format = RF_TIMES;
	attr.disabled = 0;
	return perfev_open(&attr, cg_fd, cpu, group_fd, PERF_FLAG_PID_CGROUP);
}

TEST_F(cg, counts_only_while_its_cgroup_runs)
{
	struct perfev_value v0, v1, out, v2;
	int fd;

	fd = open_cgroup_clock(self->a_fd, self->cpu, -1);
	ASSERT_GE(fd, 0) TH_LOG("errno %d", errno);

	/* outside the cgroup: nothing of ours is counted */
	burn_cpu_ns(30 * MS);
	ASSERT_EQ(0, perfev_read_value(fd, &v0));
	EXPECT_LT(v0.value, 10 * MS)
		TH_LOG("counted %llu ns outside", (unsigned long long)v0.value);
	EXPECT_LT(v0.enabled, 10 * MS);

	/* inside: our CPU time shows up, and so does the cgroup's time */
	ASSERT_EQ(0, move_to(self->a));
	burn_cpu_ns(50 * MS);
	ASSERT_EQ(0, perfev_read_value(fd, &v1));
	EXPECT_GE(v1.value - v0.value, 45 * MS)
		TH_LOG("counted %llu ns inside", (unsigned long long)(v1.value - v0.value));
	EXPECT_GE(v1.enabled - v0.enabled, 45 * MS);
	/* a software event always runs while its cgroup does */
	EXPECT_EQ(v1.enabled, v1.running);

	/*
	 * Out again: the count stops.  The move itself runs in the cgroup
	 * until the migration commits (a debug kernel may spend many
	 * milliseconds there), so the baseline is read once out.
	 */
	ASSERT_EQ(0, move_to(self->root));
	ASSERT_EQ(0, perfev_read_value(fd, &out));
	burn_cpu_ns(30 * MS);
	ASSERT_EQ(0, perfev_read_value(fd, &v2));
	EXPECT_LT(v2.value - out.value, 3 * MS)
		TH_LOG("counted %llu ns after leaving", (unsigned long long)(v2.value - out.value));
	EXPECT_LT(v2.enabled - out.enabled, 3 * MS);
	close(fd);
}

/*
 * cpu-clock of a cgroup event on @event_cg_fd while this process burns 40 ms
 * of CPU time in cgroup directory @dir, into @ns; -1 (errno set) on failure.
 */
static int clock_while_in(int event_cg_fd, int cpu, const char *dir, const char *root,
			  __u64 *ns)
{
	struct perfev_value v = { 0 };
	int fd, err = 0;

	fd = open_cgroup_clock(event_cg_fd, cpu, -1);
	if (fd < 0)
		return -1;
	if (move_to(dir))
		err = -1;
	burn_cpu_ns(40 * MS);
	if (move_to(root) || perfev_read_value(fd, &v))
		err = -1;
	close(fd);
	*ns = v.value;
	return err;
}

TEST_F(cg, parent_cgroup_counts_its_descendants)
{
	__u64 ns;

	ASSERT_EQ(0, clock_while_in(self->a_fd, self->cpu, self->child, self->root, &ns))
		TH_LOG("errno %d", errno);
	EXPECT_GE(ns, 35 * MS) TH_LOG("counted %llu ns", (unsigned long long)ns);
}

TEST_F(cg, child_cgroup_does_not_count_its_parent)
{
	__u64 ns;

	ASSERT_EQ(0, clock_while_in(self->child_fd, self->cpu, self->a, self->root, &ns))
		TH_LOG("errno %d", errno);
	EXPECT_LT(ns, 10 * MS) TH_LOG("counted %llu ns", (unsigned long long)ns);
}

TEST_F(cg, group_members_watch_one_cgroup)
{
	int leader, fd;

	leader = open_cgroup_clock(self->a_fd, self->cpu, -1);
	ASSERT_GE(leader, 0) TH_LOG("errno %d", errno);
	/* same cgroup: a member */
	fd = open_cgroup_clock(self->a_fd, self->cpu, leader);
	ASSERT_GE(fd, 0) TH_LOG("errno %d", errno);
	close(fd);
	/* another cgroup, even a descendant: EINVAL */
	EXPECT_EQ(-1, open_cgroup_clock(self->child_fd, self->cpu, leader));
	EXPECT_EQ(EINVAL, errno);
	close(leader);
}

struct cg_target {
	int fd;
	int cpu;
};

/* Child body: open a user-only cgroup event; 0 or the errno. */
static int open_cgroup_user_fn(void *arg)
{
	struct cg_target *t = arg;
	struct perf_event_attr attr;
	int fd;

	perfev_attr_init(&attr, PERF_TYPE_SOFTWARE, PERF_COUNT_SW_CPU_CLOCK);
	attr.exclude_kernel = 1;
	attr.exclude_hv = 1;
	fd = perfev_open(&attr, t->fd, t->cpu, -1, PERF_FLAG_PID_CGROUP);
	if (fd < 0)
		return errno;
	close(fd);
	return 0;
}

/*
 * A cgroup event watches every task of its cgroup on a CPU: it is a
 * CPU-wide event and needs the CPU-event permission (paranoid <= 0 or
 * CAP_PERFMON) like any other.
 */
TEST_F(cg, unprivileged_cgroup_event_needs_the_cpu_event_permission)
{
	struct cg_target t = { .fd = self->root_fd, .cpu = self->cpu };
	const char *paranoid = "/proc/sys/kernel/perf_event_paranoid";
	long long saved;

	ASSERT_EQ(0, perfev_read_int(paranoid, &saved));
	ASSERT_EQ(0, perfev_write_int(paranoid, 2));
	EXPECT_EQ(EACCES, perfev_run_unprivileged(open_cgroup_user_fn, &t));
	ASSERT_EQ(0, perfev_write_int(paranoid, 1));
	EXPECT_EQ(EACCES, perfev_run_unprivileged(open_cgroup_user_fn, &t));
	ASSERT_EQ(0, perfev_write_int(paranoid, 0));
	EXPECT_EQ(0, perfev_run_unprivileged(open_cgroup_user_fn, &t));
	EXPECT_EQ(0, perfev_write_int(paranoid, saved));
	/* root may */
	EXPECT_EQ(0, open_cgroup_user_fn(&t));
}

/* A PMU without task contexts (uncore-style) takes no cgroup events. */
TEST_F(cg, uncore_pmu_refuses_cgroup_events)
{
	struct perf_event_attr attr;
	int type, fd;

	type = perfev_pmu_type("perfev_uncore");
	if (type < 0)
		SKIP(return, "no perfev_uncore PMU (CONFIG_PERF_TEST_PMU)");
	perfev_attr_init(&attr, type, 0x01);
	EXPECT_EQ(-1, perfev_open(&attr, self->a_fd, self->cpu, -1, PERF_FLAG_PID_CGROUP));
	EXPECT_EQ(EINVAL, errno);
	/* the same event as a CPU event is fine */
	fd = perfev_open(&attr, -1, self->cpu, -1, 0);
	EXPECT_GE(fd, 0) TH_LOG("errno %d", errno);
	if (fd >= 0)
		close(fd);
}

TEST_HARNESS_MAIN
