// SPDX-License-Identifier: GPL-2.0
/*
 * read() of an event that counts on the reader's own CPU: a task's event
 * on itself, a CPU-wide event read from its CPU.  Ours reads these without
 * the context's mutex (kernel/events/event_read.c,
 * perf_event_read_value_here()); what the mutex kept still must not
 * matter.
 *
 * Covers: a read is up to date (a task-clock count grows with the running
 * time of the reads' interval, not with the last switch); threads reading
 * their own events while another thread disables, enables and resets them,
 * and adds and removes hardware or test-PMU siblings to a software leader
 * (the group moves to that PMU's context part); PERF_FORMAT_GROUP reads
 * of a group whose members join and leave meanwhile (every record adds up:
 * its size is that of its nr, ids in place), and a buffer too small for
 * the group is ENOSPC from the leader and a member; a CPU-wide event read on
 * its CPU while that CPU goes offline and online; an inherited event with
 * live children (the locked path) sums them.  Each read is sane: enabled
 * >= running, a task-clock count within its running time, no errno but
 * none.  The debug kernel's lockdep and KASAN watch the rest.
 */
#define _GNU_SOURCE
#include <pthread.h>
#include <sched.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/ioctl.h>
#include <sys/syscall.h>
#include <sys/wait.h>

#include "../kselftest_harness.h"
#include "perfev.h"

#define CPU1_ONLINE	"/sys/devices/system/cpu/cpu1/online"
#define READERS		3
#define RUN_MS		400

static __u64 now_ms(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec * 1000ULL + ts.tv_nsec / 1000000;
}

/* A task-clock event on the calling thread with both times; enabled. */
static int open_task_clock(int group_fd)
{
	struct perf_event_attr attr;

	perfev_attr_init(&attr, PERF_TYPE_SOFTWARE, PERF_COUNT_SW_TASK_CLOCK);
	attr.disabled = 0;
	attr.read_format = PERF_FORMAT_TOTAL_TIME_ENABLED | PERF_FORMAT_TOTAL_TIME_RUNNING;
	return perfev_open(&attr, 0, -1, group_fd, 0);
}

/*
 * A sane read of a task-clock event: times ordered, and the count (ns of
 * running) not beyond the running time by more than a tick's update.
 */
static bool task_clock_sane(const struct perfev_value *v)
{
	return v->enabled >= v->running && v->value <= v->running + 20000000ULL;
}

TEST(self_read_is_current)
{
	struct perfev_value a, b;
	unsigned long long msg_dv, msg_dr;
	__u64 dv, dr;
	int fd = open_task_clock(-1);

	ASSERT_GE(fd, 0);
	ASSERT_EQ(0, perfev_read_value(fd, &a));
	perfev_burn(20000000);
	ASSERT_EQ(0, perfev_read_value(fd, &b));
	dv = b.value - a.value;
	dr = b.running - a.running;
	msg_dv = dv;
	msg_dr = dr;
	/* the count was brought to now at each read: it grew as running did */
	EXPECT_GT(dr, 1000000ULL);
	EXPECT_GE(dv, dr - dr / 20) TH_LOG("count +%llu over %llu ns", msg_dv, msg_dr);
	EXPECT_LE(dv, dr + dr / 20) TH_LOG("count +%llu over %llu ns", msg_dv, msg_dr);
	EXPECT_TRUE(task_clock_sane(&b));
	close(fd);
}

/* Shared by the readers and the thread that changes their events. */
struct readers {
	int fds[READERS];		/* each reader's own event */
	pid_t tids[READERS];		/* and its thread */
	int stop;
	int ready;
	int bad[READERS];		/* a reader's failed or insane read */
	int bad_errno[READERS];
	long reads[READERS];
};

struct reader_arg {
	struct readers *r;
	int me;
};

static void *reader(void *p)
{
	struct reader_arg *ra = p;
	struct readers *r = ra->r;
	struct perfev_value v;
	int fd = open_task_clock(-1);

	r->fds[ra->me] = fd;
	r->tids[ra->me] = syscall(SYS_gettid);
	__atomic_add_fetch(&r->ready, 1, __ATOMIC_RELEASE);
	if (fd < 0) {
		r->bad_errno[ra->me] = errno;
		return NULL;
	}
	while (!__atomic_load_n(&r->stop, __ATOMIC_RELAXED)) {
		perfev_burn(2000);
		if (perfev_read_value(fd, &v)) {
			r->bad_errno[ra->me] = errno;
			break;
		}
		if (!task_clock_sane(&v))
			r->bad[ra->me]++;
		r->reads[ra->me]++;
	}
	return NULL;
}

/* Start READERS threads that read their own task-clock events. */
static int start_readers(struct readers *r, pthread_t *th, struct reader_arg *args)
{
	int i;

	for (i = 0; i < READERS; i++) {
		args[i].r = r;
		args[i].me = i;
		if (pthread_create(&th[i], NULL, reader, &args[i]))
			return -1;
	}
	while (__atomic_load_n(&r->ready, __ATOMIC_ACQUIRE) < READERS)
		sched_yield();
	return 0;
}

static void stop_readers(struct __test_metadata *_metadata, struct readers *r, pthread_t *th)
{
	int i;

	__atomic_store_n(&r->stop, 1, __ATOMIC_RELAXED);
	for (i = 0; i < READERS; i++) {
		ASSERT_EQ(0, pthread_join(th[i], NULL));
		EXPECT_EQ(0, r->bad_errno[i]) TH_LOG("reader %d: errno %d", i, r->bad_errno[i]);
		EXPECT_EQ(0, r->bad[i]) TH_LOG("reader %d: %d insane reads", i, r->bad[i]);
		EXPECT_GT(r->reads[i], 0);
	}
}

TEST(self_reads_while_another_thread_disables_enables_resets)
{
	struct reader_arg args[READERS];
	pthread_t th[READERS];
	struct readers r;
	__u64 end;
	int i, n = 0;

	memset(&r, 0, sizeof(r));
	ASSERT_EQ(0, start_readers(&r, th, args));
	end = now_ms() + RUN_MS;
	while (now_ms() < end) {
		for (i = 0; i < READERS; i++) {
			int fd = r.fds[i];

			if (fd < 0)
				continue;
			switch (n++ % 3) {
			case 0:
				ioctl(fd, PERF_EVENT_IOC_DISABLE, 0);
				break;
			case 1:
				ioctl(fd, PERF_EVENT_IOC_RESET, 0);
				break;
			default:
				ioctl(fd, PERF_EVENT_IOC_ENABLE, 0);
				break;
			}
		}
	}
	for (i = 0; i < READERS; i++)
		if (r.fds[i] >= 0)
			ioctl(r.fds[i], PERF_EVENT_IOC_ENABLE, 0);
	stop_readers(_metadata, &r, th);
	for (i = 0; i < READERS; i++)
		if (r.fds[i] >= 0)
			close(r.fds[i]);
}

/*
 * A sibling of another PMU for a software leader: hardware instructions,
 * or the test PMU's counter; -1 (and *@kind NULL) when neither opens.
 */
static int open_other_pmu_sibling(int leader, pid_t tid, const char **kind)
{
	struct perf_event_attr attr;
	int type, fd;

	perfev_attr_init(&attr, PERF_TYPE_HARDWARE, PERF_COUNT_HW_INSTRUCTIONS);
	attr.disabled = 0;
	attr.exclude_kernel = 1;
	fd = perfev_open(&attr, tid, -1, leader, 0);
	if (fd >= 0) {
		*kind = "hardware";
		return fd;
	}
	type = perfev_pmu_type("perfev_test");
	if (type < 0)
		return -1;
	perfev_attr_init(&attr, type, 0x01);
	attr.disabled = 0;
	fd = perfev_open(&attr, tid, -1, leader, 0);
	if (fd >= 0)
		*kind = "test PMU";
	return fd;
}

TEST(self_reads_while_the_leader_gains_and_loses_siblings_of_another_pmu)
{
	struct reader_arg args[READERS];
	const char *kind = NULL;
	pthread_t th[READERS];
	struct readers r;
	int i, sib, moves = 0;
	__u64 end;

	/* does a sibling of another PMU open here at all? */
	i = open_task_clock(-1);
	ASSERT_GE(i, 0);
	sib = open_other_pmu_sibling(i, 0, &kind);
	close(i);
	if (sib < 0)
		SKIP(return, "no hardware or test-PMU event to add to a software group");
	close(sib);

	/*
	 * Each reader's event is a software leader on that thread: a sibling
	 * of another PMU opened in its group (on the same thread) moves the
	 * group to that PMU's part of the context while the reader reads.
	 */
	memset(&r, 0, sizeof(r));
	ASSERT_EQ(0, start_readers(&r, th, args));
	end = now_ms() + RUN_MS;
	while (now_ms() < end) {
		for (i = 0; i < READERS; i++) {
			if (r.fds[i] < 0)
				continue;
			sib = open_other_pmu_sibling(r.fds[i], r.tids[i], &kind);
			if (sib >= 0) {
				moves++;
				close(sib);
			}
		}
	}
	stop_readers(_metadata, &r, th);
	EXPECT_GT(moves, 0) TH_LOG("no %s sibling joined a reader's group", kind);
	for (i = 0; i < READERS; i++)
		if (r.fds[i] >= 0)
			close(r.fds[i]);
}

/* Group readers: each reads its own group while members come and go. */
struct group_readers {
	int fds[READERS];		/* each reader's leader */
	pid_t tids[READERS];
	__u64 ids[READERS];		/* the leader's PERF_EVENT_IOC_ID */
	int stop, ready;
	int bad[READERS];		/* records that do not add up */
	int bad_errno[READERS];
	long reads[READERS], max_nr[READERS];
};

struct group_reader_arg {
	struct group_readers *g;
	int me;
};

#define GROUP_FORMAT	(PERF_FORMAT_GROUP | PERF_FORMAT_ID | \
			 PERF_FORMAT_TOTAL_TIME_ENABLED | PERF_FORMAT_TOTAL_TIME_RUNNING)

static void *group_reader(void *p)
{
	struct group_reader_arg *ga = p;
	struct group_readers *g = ga->g;
	struct perf_event_attr attr;
	__u64 buf[64], i, nr;
	ssize_t n;
	int fd;

	perfev_attr_init(&attr, PERF_TYPE_SOFTWARE, PERF_COUNT_SW_TASK_CLOCK);
	attr.disabled = 0;
	attr.read_format = GROUP_FORMAT;
	fd = perfev_open(&attr, 0, -1, -1, 0);
	if (fd < 0 || ioctl(fd, PERF_EVENT_IOC_ID, &g->ids[ga->me]))
		g->bad_errno[ga->me] = errno;
	g->fds[ga->me] = fd;
	g->tids[ga->me] = syscall(SYS_gettid);
	__atomic_add_fetch(&g->ready, 1, __ATOMIC_RELEASE);
	if (fd < 0)
		return NULL;
	while (!__atomic_load_n(&g->stop, __ATOMIC_RELAXED)) {
		perfev_burn(2000);
		n = read(fd, buf, sizeof(buf));
		if (n < 0) {
			g->bad_errno[ga->me] = errno;
			break;
		}
		/* { nr, enabled, running, { value, id } * nr }, all of it */
		nr = buf[0];
		if (nr < 1 || nr > 20 || n != (ssize_t)((3 + 2 * nr) * 8) ||
		    buf[1] < buf[2] || buf[4] != g->ids[ga->me])
			g->bad[ga->me]++;
		for (i = 1; i < nr && n == (ssize_t)((3 + 2 * nr) * 8); i++)
			if (!buf[4 + 2 * i] || buf[4 + 2 * i] == buf[4])
				g->bad[ga->me]++;
		if ((long)nr > g->max_nr[ga->me])
			g->max_nr[ga->me] = nr;
		g->reads[ga->me]++;
	}
	return NULL;
}

TEST(group_reads_while_members_join_and_leave)
{
	struct group_reader_arg args[READERS];
	struct perf_event_attr attr;
	pthread_t th[READERS];
	struct group_readers g;
	int i, k, sib[READERS][3], joined = 0;
	__u64 end;

	memset(&g, 0, sizeof(g));
	memset(sib, -1, sizeof(sib));
	for (i = 0; i < READERS; i++) {
		args[i].g = &g;
		args[i].me = i;
		ASSERT_EQ(0, pthread_create(&th[i], NULL, group_reader, &args[i]));
	}
	while (__atomic_load_n(&g.ready, __ATOMIC_ACQUIRE) < READERS)
		sched_yield();
	/* page-fault and context-switch members join each group and leave */
	perfev_attr_init(&attr, PERF_TYPE_SOFTWARE, PERF_COUNT_SW_PAGE_FAULTS);
	attr.disabled = 0;
	attr.read_format = GROUP_FORMAT;
	end = now_ms() + RUN_MS;
	for (k = 0; now_ms() < end; k++) {
		for (i = 0; i < READERS; i++) {
			int *slot = &sib[i][k % 3];

			if (g.fds[i] < 0)
				continue;
			if (*slot >= 0) {
				close(*slot);
				*slot = -1;
				continue;
			}
			attr.config = k & 1 ? PERF_COUNT_SW_PAGE_FAULTS :
					      PERF_COUNT_SW_CONTEXT_SWITCHES;
			*slot = perfev_open(&attr, g.tids[i], -1, g.fds[i], 0);
			joined += *slot >= 0;
		}
	}
	__atomic_store_n(&g.stop, 1, __ATOMIC_RELAXED);
	for (i = 0; i < READERS; i++) {
		ASSERT_EQ(0, pthread_join(th[i], NULL));
		EXPECT_EQ(0, g.bad_errno[i]) TH_LOG("reader %d: errno %d", i, g.bad_errno[i]);
		EXPECT_EQ(0, g.bad[i]) TH_LOG("reader %d: %d records that do not add up",
					      i, g.bad[i]);
		EXPECT_GT(g.reads[i], 0);
		for (k = 0; k < 3; k++)
			if (sib[i][k] >= 0)
				close(sib[i][k]);
		if (g.fds[i] >= 0)
			close(g.fds[i]);
	}
	EXPECT_GT(joined, 0);
}

/* A group record that does not fit is ENOSPC, never cut short. */
TEST(group_read_into_a_buffer_too_small_is_enospc)
{
	struct perf_event_attr attr;
	__u64 buf[8];
	int l, m;

	perfev_attr_init(&attr, PERF_TYPE_SOFTWARE, PERF_COUNT_SW_TASK_CLOCK);
	attr.disabled = 0;
	attr.read_format = PERF_FORMAT_GROUP;
	l = perfev_open(&attr, 0, -1, -1, 0);
	ASSERT_GE(l, 0);
	attr.config = PERF_COUNT_SW_CPU_CLOCK;
	m = perfev_open(&attr, 0, -1, l, 0);
	ASSERT_GE(m, 0);
	/* { nr, value, value } is 24 bytes: 16 is too small, from either fd */
	EXPECT_EQ(-1, read(l, buf, 16));
	EXPECT_EQ(ENOSPC, errno);
	EXPECT_EQ(-1, read(m, buf, 16));
	EXPECT_EQ(ENOSPC, errno);
	EXPECT_EQ(24, read(m, buf, sizeof(buf)));
	EXPECT_EQ(2ULL, buf[0]);
	close(m);
	close(l);
}

/* CPU hotplug of cpu1; always brought back online in teardown. */
FIXTURE(hotplug)
{
	bool can;
};

FIXTURE_SETUP(hotplug)
{
	long long online;

	self->can = perfev_nr_cpus() >= 2 && getuid() == 0 &&
		    perfev_read_int(CPU1_ONLINE, &online) == 0 && online == 1 &&
		    access(CPU1_ONLINE, W_OK) == 0;
}

FIXTURE_TEARDOWN(hotplug)
{
	long long online = 0;
	int i;

	for (i = 0; i < 50; i++) {
		if (perfev_read_int(CPU1_ONLINE, &online) || online == 1)
			break;
		perfev_write_int(CPU1_ONLINE, 1);
		usleep(20000);
	}
}

struct cpu_reader {
	int fd;
	int stop;
	long reads, bad, on_cpu1;
	int err;
};

/* Pinned to cpu1 (migrated when it goes away): read its CPU-wide event. */
static void *cpu1_reader(void *p)
{
	struct cpu_reader *c = p;
	struct perfev_value v, last = { 0 };
	cpu_set_t set;

	CPU_ZERO(&set);
	CPU_SET(1, &set);
	if (sched_setaffinity(0, sizeof(set), &set)) {
		c->err = errno;
		return NULL;
	}
	while (!__atomic_load_n(&c->stop, __ATOMIC_RELAXED)) {
		if (perfev_read_value(c->fd, &v)) {
			c->err = errno;
			break;
		}
		/* no reset here: the count and the times never go back */
		if (v.value < last.value || v.enabled < last.enabled || v.running > v.enabled)
			c->bad++;
		last = v;
		c->reads++;
		c->on_cpu1 += sched_getcpu() == 1;
	}
	return NULL;
}

TEST_F(hotplug, cpu_event_read_on_its_cpu_while_the_cpu_goes_off_and_on)
{
	struct perf_event_attr attr;
	struct cpu_reader c;
	pthread_t th;
	int i;

	if (!self->can)
		SKIP(return, "cpu1 cannot be taken offline here");
	memset(&c, 0, sizeof(c));
	perfev_attr_init(&attr, PERF_TYPE_SOFTWARE, PERF_COUNT_SW_CPU_CLOCK);
	attr.disabled = 0;
	attr.read_format = PERF_FORMAT_TOTAL_TIME_ENABLED | PERF_FORMAT_TOTAL_TIME_RUNNING;
	c.fd = perfev_open(&attr, -1, 1, -1, 0);
	ASSERT_GE(c.fd, 0);
	ASSERT_EQ(0, pthread_create(&th, NULL, cpu1_reader, &c));
	usleep(50000);
	for (i = 0; i < 3; i++) {
		if (perfev_write_int(CPU1_ONLINE, 0)) {
			__atomic_store_n(&c.stop, 1, __ATOMIC_RELAXED);
			pthread_join(th, NULL);
			close(c.fd);
			SKIP(return, "writing 0 to %s failed: errno %d", CPU1_ONLINE, errno);
		}
		usleep(20000);
		ASSERT_EQ(0, perfev_write_int(CPU1_ONLINE, 1));
		usleep(50000);
	}
	__atomic_store_n(&c.stop, 1, __ATOMIC_RELAXED);
	ASSERT_EQ(0, pthread_join(th, NULL));
	EXPECT_EQ(0, c.err);
	EXPECT_EQ(0, c.bad) TH_LOG("%ld of %ld reads went back", c.bad, c.reads);
	EXPECT_GT(c.on_cpu1, 0) TH_LOG("never read on cpu1");
	close(c.fd);
}

TEST(inherited_event_with_live_children_sums_them)
{
	struct perf_event_attr attr;
	int fd, go[2], done[2], i;
	__u64 before, after;
	pid_t pid[2];
	char c;

	perfev_attr_init(&attr, PERF_TYPE_SOFTWARE, PERF_COUNT_SW_PAGE_FAULTS);
	attr.disabled = 0;
	attr.inherit = 1;
	fd = perfev_open(&attr, 0, -1, -1, 0);
	ASSERT_GE(fd, 0);
	ASSERT_EQ(0, pipe(go));
	ASSERT_EQ(0, pipe(done));
	for (i = 0; i < 2; i++) {
		pid[i] = fork();
		ASSERT_GE(pid[i], 0);
		if (pid[i] == 0) {
			/* fault, report, and stay alive until told */
			perfev_touch_pages(64);
			if (write(done[1], "x", 1) != 1 || read(go[0], &c, 1) != 1)
				_exit(1);
			_exit(0);
		}
	}
	for (i = 0; i < 2; i++)
		ASSERT_EQ(1, read(done[0], &c, 1));
	/* both children live, their counts not folded yet */
	ASSERT_EQ(0, perfev_read_count(fd, &before));
	EXPECT_GE(before, 128ULL) TH_LOG("read %llu with two live children of 64 faults each",
					 (unsigned long long)before);
	ASSERT_EQ(2, write(go[1], "xx", 2));
	for (i = 0; i < 2; i++)
		waitpid(pid[i], NULL, 0);
	ASSERT_EQ(0, perfev_read_count(fd, &after));
	EXPECT_GE(after, before);
	close(fd);
}

TEST_HARNESS_MAIN
