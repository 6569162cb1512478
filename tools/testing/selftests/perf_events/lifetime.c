// SPDX-License-Identifier: GPL-2.0
/*
 * Lifetime of perf events: file descriptors, mappings, target tasks, CPUs.
 *
 * Covers: closing the fd of a mapped event leaves the mapping valid and the
 * event alive (the mapping holds the file: samples keep arriving until
 * munmap); closing an event while it samples another running thread; a
 * target task that exits leaves a readable, frozen count, and poll() turns
 * POLLHUP only then (an event without a buffer polls POLLHUP at once); with
 * inherit, POLLHUP waits for the last inheriting descendant and the count is
 * the sum; opening on an exited (zombie or reaped) task is ESRCH; an fd sent
 * over a unix socket (SCM_RIGHTS) keeps counting the sender and controls it;
 * thousands of events opened and closed with fd numbers reused; concurrent
 * read/ioctl/close from several threads fail only with EBADF; a task whose
 * last event was closed while it ran, and which then slept, takes a new
 * event at once and counts; CPU hotplug: a per-CPU event stops counting
 * when its CPU goes offline, opening one on an offline CPU is ENODEV, and
 * (6.1) the old event stays detached after the CPU comes back while a new
 * one counts.
 */
#define _GNU_SOURCE
#include <fcntl.h>
#include <poll.h>
#include <pthread.h>
#include <sched.h>
#include <signal.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <sys/mman.h>
#include <sys/resource.h>
#include <sys/socket.h>
#include <sys/syscall.h>
#include <sys/wait.h>

#include "../kselftest_harness.h"
#include "perfev.h"
#include "perfev_ring.h"

#define CPU1_ONLINE	"/sys/devices/system/cpu/cpu1/online"

static size_t pgsz(void)
{
	return sysconf(_SC_PAGESIZE);
}

static __u64 head_of(struct perf_event_mmap_page *pg)
{
	return __atomic_load_n(&pg->data_head, __ATOMIC_ACQUIRE);
}

static int poll_fd(int fd, int ms)
{
	struct pollfd p = { .fd = fd, .events = POLLIN };
	int n = poll(&p, 1, ms);

	return n < 0 ? -1 : n ? p.revents : 0;
}

/* Counting page-fault event on @pid, enabled. */
static int open_pf(pid_t pid, int cpu, bool inherit)
{
	struct perf_event_attr attr;

	perfev_attr_init(&attr, PERF_TYPE_SOFTWARE, PERF_COUNT_SW_PAGE_FAULTS);
	attr.disabled = 0;
	attr.inherit = inherit;
	attr.read_format = PERF_FORMAT_TOTAL_TIME_ENABLED | PERF_FORMAT_TOTAL_TIME_RUNNING;
	return perfev_open(&attr, pid, cpu, -1, 0);
}

TEST(close_while_mmapped_keeps_event_alive)
{
	struct perf_event_attr attr;
	struct perfev_ring r;
	__u64 h1, h2;
	int fd;

	perfev_attr_init(&attr, PERF_TYPE_SOFTWARE, PERF_COUNT_SW_TASK_CLOCK);
	attr.sample_period = 50000;	/* 50 us */
	attr.sample_type = PERF_SAMPLE_TID;
	attr.disabled = 0;
	fd = perfev_open(&attr, 0, -1, -1, 0);
	ASSERT_GE(fd, 0);
	ASSERT_EQ(0, perfev_ring_map(&r, fd, 8, false));
	ASSERT_EQ(0, close(fd));
	/* The user page is still there and intact... */
	EXPECT_EQ((__u64)pgsz(), r.page->data_offset);
	EXPECT_EQ((__u64)8 * pgsz(), r.page->data_size);
	EXPECT_EQ(1U, (unsigned int)r.page->cap_bit0_is_deprecated);
	/* ...and the event still writes into it: the mapping holds the file. */
	h1 = head_of(r.page);
	perfev_burn(3000000);
	perfev_ring_drain(&r);
	perfev_burn(3000000);
	h2 = head_of(r.page);
	EXPECT_GT(h2, h1);
	/*
	 * a throttled sampler writes (UN)THROTTLE records too, and a LOST
	 * one when the first burn outran the ring (a loaded host stretches
	 * it: more task-clock periods)
	 */
	do {
		ASSERT_NE(NULL, perfev_ring_next_unthrottled(&r));
	} while (((struct perf_event_header *)r.rec)->type == PERF_RECORD_LOST);
	EXPECT_EQ((__u32)PERF_RECORD_SAMPLE, ((struct perf_event_header *)r.rec)->type);
	EXPECT_EQ(16, ((struct perf_event_header *)r.rec)->size);
	EXPECT_GT(r.page->time_enabled, 0ULL);
	perfev_ring_unmap(&r);
}

struct spinner {
	volatile int stop;
	volatile pid_t tid;
};

static void *spin_fn(void *arg)
{
	struct spinner *sp = arg;

	sp->tid = syscall(__NR_gettid);
	while (!sp->stop)
		perfev_burn(1000);
	return NULL;
}

TEST(close_while_sampling_another_thread)
{
	struct spinner sp = { 0 };
	struct perf_event_attr attr;
	struct perfev_ring r;
	pthread_t th;
	__u64 count;
	int i, j, fd, with_samples = 0;

	ASSERT_EQ(0, pthread_create(&th, NULL, spin_fn, &sp));
	while (!sp.tid)
		usleep(1000);
	perfev_attr_init(&attr, PERF_TYPE_SOFTWARE, PERF_COUNT_SW_TASK_CLOCK);
	attr.sample_period = 20000;
	attr.sample_type = PERF_SAMPLE_TID;
	attr.disabled = 0;
	for (i = 0; i < 30; i++) {
		fd = perfev_open(&attr, sp.tid, -1, -1, 0);
		ASSERT_GE(fd, 0) TH_LOG("round %d: errno %d", i, errno);
		ASSERT_EQ(0, perfev_ring_map(&r, fd, 1, false));
		for (j = 0; j < 50 && !perfev_ring_pending(&r); j++)
			usleep(2000);
		ASSERT_EQ(0, perfev_read_count(fd, &count));
		if (perfev_ring_count(&r, PERF_RECORD_SAMPLE) > 0)
			with_samples++;
		perfev_ring_unmap(&r);
		/* The other thread keeps overflowing it while it goes away. */
		ASSERT_EQ(0, close(fd));
	}
	sp.stop = 1;
	ASSERT_EQ(0, pthread_join(th, NULL));
	EXPECT_GT(with_samples, 20);
	EXPECT_EQ(-1, perfev_read_count(fd, &count));
	EXPECT_EQ(EBADF, errno);
}

static void touch64(void *arg)
{
	perfev_touch_pages(64);
}

TEST(target_exit_leaves_frozen_readable_count)
{
	struct perfev_value v1, v2;
	struct perfev_child c;
	int fd;

	ASSERT_EQ(0, perfev_child_start(&c, touch64, NULL));
	fd = open_pf(c.pid, -1, false);
	ASSERT_GE(fd, 0);
	ASSERT_EQ(0, perfev_child_go(&c));
	ASSERT_EQ(0, perfev_child_wait(&c));
	ASSERT_EQ(0, perfev_read_value(fd, &v1));
	EXPECT_GE(v1.value, 64ULL);
	EXPECT_LT(v1.value, 64ULL + 1000);
	EXPECT_GT(v1.enabled, 0ULL);
	usleep(20000);
	/* Nothing moves any more, times included. */
	ASSERT_EQ(0, perfev_read_value(fd, &v2));
	EXPECT_EQ(v1.value, v2.value);
	EXPECT_EQ(v1.enabled, v2.enabled);
	EXPECT_EQ(v1.running, v2.running);
	/* ioctls on the dead event are harmless. */
	EXPECT_EQ(0, ioctl(fd, PERF_EVENT_IOC_RESET, 0));
	ASSERT_EQ(0, perfev_read_value(fd, &v2));
	EXPECT_EQ(0ULL, v2.value);
	close(fd);
}

TEST(target_exit_poll_hup)
{
	struct perfev_child c;
	struct perfev_ring r;
	int fd, nobuf;

	ASSERT_EQ(0, perfev_child_start(&c, touch64, NULL));
	fd = open_pf(c.pid, -1, false);
	ASSERT_GE(fd, 0);
	nobuf = open_pf(c.pid, -1, false);
	ASSERT_GE(nobuf, 0);
	/* Without a buffer there is nothing to wait for: POLLHUP at once. */
	EXPECT_EQ(POLLHUP, poll_fd(nobuf, 0));
	ASSERT_EQ(0, perfev_ring_map(&r, fd, 1, false));
	EXPECT_EQ(0, poll_fd(fd, 50));
	ASSERT_EQ(0, perfev_child_go(&c));
	/* The exit wakes a poller. */
	EXPECT_EQ(POLLHUP, poll_fd(fd, 5000) & POLLHUP);
	ASSERT_EQ(0, perfev_child_wait(&c));
	EXPECT_EQ(POLLHUP, poll_fd(fd, 0));
	perfev_ring_unmap(&r);
	close(fd);
	close(nobuf);
}

/* Inherited: POLLHUP once the last descendant has gone. */
struct family {
	int release[2];		/* grandchild waits for a byte */
	int gone[2];		/* grandchild holds the write end until it exits */
};

static void family_body(void *arg)
{
	struct family *f = arg;
	char ch;

	if (fork() == 0) {
		close(f->gone[0]);
		if (read(f->release[0], &ch, 1) != 1)
			_exit(1);
		perfev_touch_pages(64);
		_exit(0);
	}
	close(f->gone[1]);
	perfev_touch_pages(64);
}

TEST(inherit_poll_hup_after_last_descendant)
{
	struct perfev_value v;
	struct perfev_child c;
	struct perfev_ring r;
	struct family f;
	int counter, mapped;
	char ch = 1;

	ASSERT_EQ(0, pipe(f.release));
	ASSERT_EQ(0, pipe(f.gone));
	ASSERT_EQ(0, perfev_child_start(&c, family_body, &f));
	counter = open_pf(c.pid, -1, true);
	ASSERT_GE(counter, 0);
	/* Inherited task events can only be mapped per CPU. */
	mapped = open_pf(c.pid, 0, true);
	ASSERT_GE(mapped, 0);
	ASSERT_EQ(0, perfev_ring_map(&r, mapped, 1, false));
	close(f.gone[1]);
	ASSERT_EQ(0, perfev_child_go(&c));
	ASSERT_EQ(0, perfev_child_wait(&c));
	/* The child is gone, its child still runs (blocked). */
	EXPECT_EQ(0, poll_fd(mapped, 100));
	ASSERT_EQ(1, write(f.release[1], &ch, 1));
	EXPECT_EQ(0, read(f.gone[0], &ch, 1));	/* EOF: grandchild exiting */
	EXPECT_EQ(POLLHUP, poll_fd(mapped, 5000) & POLLHUP);
	/* Both generations' faults end up in the parent event. */
	ASSERT_EQ(0, perfev_read_value(counter, &v));
	EXPECT_GE(v.value, 128ULL);
	EXPECT_LT(v.value, 128ULL + 2000);
	perfev_ring_unmap(&r);
	close(mapped);
	close(counter);
	close(f.release[0]);
	close(f.release[1]);
	close(f.gone[0]);
}

TEST(open_on_exited_task_esrch)
{
	struct perf_event_attr attr;
	siginfo_t si;
	pid_t pid;

	perfev_attr_init(&attr, PERF_TYPE_SOFTWARE, PERF_COUNT_SW_TASK_CLOCK);
	pid = fork();
	ASSERT_GE(pid, 0);
	if (pid == 0)
		_exit(0);
	/* Wait for the exit without reaping: a zombie. */
	ASSERT_EQ(0, waitid(P_PID, pid, &si, WEXITED | WNOWAIT));
	EXPECT_EQ(-1, perfev_open(&attr, pid, -1, -1, 0));
	EXPECT_EQ(ESRCH, errno);
	ASSERT_EQ(pid, waitpid(pid, NULL, 0));
	EXPECT_EQ(-1, perfev_open(&attr, pid, -1, -1, 0));
	EXPECT_EQ(ESRCH, errno);
}

static int send_fd(int sock, int fd)
{
	char cbuf[CMSG_SPACE(sizeof(int))] = { 0 };
	struct iovec iov = { .iov_base = "F", .iov_len = 1 };
	struct msghdr msg = {
		.msg_iov = &iov, .msg_iovlen = 1,
		.msg_control = cbuf, .msg_controllen = sizeof(cbuf),
	};
	struct cmsghdr *cm = CMSG_FIRSTHDR(&msg);

	cm->cmsg_level = SOL_SOCKET;
	cm->cmsg_type = SCM_RIGHTS;
	cm->cmsg_len = CMSG_LEN(sizeof(int));
	memcpy(CMSG_DATA(cm), &fd, sizeof(int));
	return sendmsg(sock, &msg, 0) == 1 ? 0 : -1;
}

static int recv_fd(int sock)
{
	char cbuf[CMSG_SPACE(sizeof(int))] = { 0 }, ch;
	struct iovec iov = { .iov_base = &ch, .iov_len = 1 };
	struct msghdr msg = {
		.msg_iov = &iov, .msg_iovlen = 1,
		.msg_control = cbuf, .msg_controllen = sizeof(cbuf),
	};
	struct cmsghdr *cm;
	int fd;

	if (recvmsg(sock, &msg, 0) != 1)
		return -1;
	cm = CMSG_FIRSTHDR(&msg);
	if (!cm || cm->cmsg_type != SCM_RIGHTS)
		return -1;
	memcpy(&fd, CMSG_DATA(cm), sizeof(int));
	return fd;
}

TEST(fd_passed_over_unix_socket_keeps_counting)
{
	struct perfev_value v1, v2, v3;
	int sv[2], fd, status;
	char ch = 0;
	pid_t pid;

	ASSERT_EQ(0, socketpair(AF_UNIX, SOCK_STREAM, 0, sv));
	pid = fork();
	ASSERT_GE(pid, 0);
	if (pid == 0) {
		/* Counts itself, hands the only fd over, then works on cue. */
		close(sv[0]);
		fd = open_pf(0, -1, false);
		if (fd < 0 || send_fd(sv[1], fd))
			_exit(1);
		close(fd);
		while (read(sv[1], &ch, 1) == 1) {
			perfev_touch_pages(64);
			if (write(sv[1], &ch, 1) != 1)
				_exit(2);
		}
		_exit(0);
	}
	close(sv[1]);
	fd = recv_fd(sv[0]);
	ASSERT_GE(fd, 0);
	ASSERT_EQ(0, perfev_read_value(fd, &v1));
	ASSERT_EQ(1, write(sv[0], &ch, 1));
	ASSERT_EQ(1, read(sv[0], &ch, 1));
	ASSERT_EQ(0, perfev_read_value(fd, &v2));
	EXPECT_GE(v2.value - v1.value, 64ULL);
	EXPECT_LT(v2.value - v1.value, 64ULL + 1000);
	/* The receiver controls the sender's event. */
	ASSERT_EQ(0, ioctl(fd, PERF_EVENT_IOC_DISABLE, 0));
	ASSERT_EQ(1, write(sv[0], &ch, 1));
	ASSERT_EQ(1, read(sv[0], &ch, 1));
	ASSERT_EQ(0, perfev_read_value(fd, &v3));
	EXPECT_EQ(v2.value, v3.value);
	close(sv[0]);
	ASSERT_EQ(pid, waitpid(pid, &status, 0));
	EXPECT_TRUE(WIFEXITED(status) && WEXITSTATUS(status) == 0);
	ASSERT_EQ(0, perfev_read_value(fd, &v3));
	EXPECT_EQ(v2.value, v3.value);
	close(fd);
}

/* The state letter of @pid in /proc/<pid>/stat, or 0. */
static char task_state(pid_t pid)
{
	char path[64], buf[512], *p;
	ssize_t n;
	int fd;

	snprintf(path, sizeof(path), "/proc/%d/stat", pid);
	fd = open(path, O_RDONLY);
	if (fd < 0)
		return 0;
	n = read(fd, buf, sizeof(buf) - 1);
	close(fd);
	if (n <= 0)
		return 0;
	buf[n] = 0;
	p = strrchr(buf, ')');
	return p && p[1] == ' ' ? p[2] : 0;
}

static void pin_to(int cpu)
{
	cpu_set_t one;

	CPU_ZERO(&one);
	CPU_SET(cpu, &one);
	sched_setaffinity(0, sizeof(one), &one);
}

/*
 * A task's last event is closed while the task runs on another CPU; the
 * task then sleeps.  A new event on it must open at once and count once
 * it runs again.  (Nothing is left to count in between, so the kernel may
 * switch its context-switch hooks off before the task sleeps: its empty
 * context must not be left looking scheduled in.)  The task spins as a
 * real-time task so that no kernel thread switches it out too early; a
 * few rounds, since the window depends on timing.
 */
TEST(open_on_sleeping_task_whose_last_event_closed_while_it_ran)
{
	struct sched_param fifo = { .sched_priority = 1 };
	struct perf_event_attr attr;
	int wake[2], fd, i, round, status;
	volatile int *phase;
	cpu_set_t saved;
	__u64 count;
	char ch = 0;
	pid_t pid;

	if (perfev_nr_cpus() < 2)
		SKIP(return, "needs two online CPUs");
	phase = mmap(NULL, pgsz(), PROT_READ | PROT_WRITE, MAP_SHARED | MAP_ANONYMOUS, -1, 0);
	ASSERT_NE(MAP_FAILED, phase);
	ASSERT_EQ(0, pipe(wake));
	ASSERT_EQ(0, sched_getaffinity(0, sizeof(saved), &saved));
	perfev_attr_init(&attr, PERF_TYPE_SOFTWARE, PERF_COUNT_SW_TASK_CLOCK);
	attr.disabled = 0;
	pin_to(0);

	for (round = 0; round < 3; round++) {
		*phase = 0;
		pid = fork();
		ASSERT_GE(pid, 0);
		if (pid == 0) {
			pin_to(1);
			sched_setscheduler(0, SCHED_FIFO, &fifo);
			*phase = 1;
			while (*phase == 1)
				;
			if (read(wake[0], &ch, 1) != 1)
				_exit(1);
			perfev_burn(1000000);
			_exit(0);
		}
		for (i = 0; i < 5000 && *phase != 1; i++)
			usleep(1000);
		EXPECT_EQ(1, *phase);

		fd = perfev_open(&attr, pid, -1, -1, 0);
		EXPECT_GE(fd, 0);
		if (fd >= 0)
			close(fd);		/* the child is running on CPU 1 */
		usleep(100000);			/* time for the hooks to go off */
		*phase = 2;			/* the child goes to sleep */
		for (i = 0; i < 5000 && task_state(pid) != 'S'; i++)
			usleep(1000);
		EXPECT_EQ('S', task_state(pid));

		fd = perfev_open(&attr, pid, -1, -1, 0);
		EXPECT_GE(fd, 0);
		EXPECT_EQ(1, write(wake[1], &ch, 1));
		EXPECT_EQ(pid, waitpid(pid, &status, 0));
		EXPECT_TRUE(WIFEXITED(status) && WEXITSTATUS(status) == 0);
		if (fd >= 0) {
			count = 0;
			EXPECT_EQ(0, perfev_read_count(fd, &count));
			EXPECT_GT(count, 0ULL);
			close(fd);
		}
	}
	sched_setaffinity(0, sizeof(saved), &saved);
	close(wake[0]);
	close(wake[1]);
	munmap((void *)phase, pgsz());
}

#define RUNNER_PAGES	200

/* A child that takes page faults, one per step, on cpu1. */
struct runner {
	volatile unsigned long progress;	/* faults taken */
	volatile unsigned long sleeps;		/* bumped before each sleep */
	volatile int stop;
};

/*
 * Fault in RUNNER_PAGES fresh pages, bumping progress for each, then
 * sleep @sleep_us if non-zero; until stopped.  Fresh mappings each round:
 * tinyconfig has no madvise().  Page faults, not task-clock: local_clock()
 * may stand still between ticks where the TSC is unstable (QEMU TCG).
 */
static void runner_loop(struct runner *r, unsigned int sleep_us)
{
	size_t len = RUNNER_PAGES * pgsz();
	char *mem;
	int i;

	pin_to(1);
	while (!r->stop) {
		mem = mmap(NULL, len, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
		if (mem == MAP_FAILED)
			_exit(1);
		for (i = 0; i < RUNNER_PAGES && !r->stop; i++) {
			mem[i * pgsz()] = 1;
			r->progress++;
		}
		munmap(mem, len);
		if (sleep_us) {
			r->sleeps++;
			usleep(sleep_us);
		}
	}
	_exit(0);
}

/* The shared runner page, the saved affinity and the child of a runner test. */
struct runner_test {
	struct runner *r;
	cpu_set_t saved;
	pid_t pid;
};

/* Start a runner child on cpu1 (sleeping @sleep_us between rounds); 0 or -1. */
static int runner_start(struct runner_test *t, unsigned int sleep_us)
{
	t->r = mmap(NULL, pgsz(), PROT_READ | PROT_WRITE, MAP_SHARED | MAP_ANONYMOUS, -1, 0);
	if (t->r == MAP_FAILED || sched_getaffinity(0, sizeof(t->saved), &t->saved))
		return -1;
	t->pid = fork();
	if (t->pid < 0)
		return -1;
	if (t->pid == 0)
		runner_loop(t->r, sleep_us);
	pin_to(0);
	return 0;
}

/* Stop the runner; its exit status (0 when all went well), or -1. */
static int runner_stop(struct runner_test *t)
{
	int status;

	t->r->stop = 1;
	if (waitpid(t->pid, &status, 0) != t->pid || !WIFEXITED(status))
		status = -1;
	else
		status = WEXITSTATUS(status);
	sched_setaffinity(0, sizeof(t->saved), &t->saved);
	munmap(t->r, pgsz());
	return status;
}

/*
 * An event opened on a task that runs on another CPU (installed there by a
 * cross-CPU call) counts what the task does from then on.
 */
TEST(open_on_a_task_running_on_another_cpu_counts)
{
	struct runner_test t;
	struct perfev_value v;
	unsigned long p0;
	int fd;

	if (perfev_nr_cpus() < 2)
		SKIP(return, "needs two online CPUs");
	ASSERT_EQ(0, runner_start(&t, 0));
	while (!t.r->progress)
		usleep(1000);
	fd = open_pf(t.pid, -1, false);
	EXPECT_GE(fd, 0);
	p0 = t.r->progress;
	while (t.r->progress < p0 + 100)
		;
	memset(&v, 0, sizeof(v));
	EXPECT_EQ(0, perfev_read_value(fd, &v));
	EXPECT_EQ(0, runner_stop(&t));
	EXPECT_GE(v.value, 100ULL) TH_LOG("%llu faults, %llu/%llu ns",
					  (unsigned long long)v.value,
					  (unsigned long long)v.running,
					  (unsigned long long)v.enabled);
	close(fd);
}

/*
 * A task that switches in often and then runs for a while: events opened
 * on it just as it switches in must count from then on.  The install
 * decides "not running" under the context's lock, so the sched-in hook
 * reads the context under that lock too; otherwise the event is missed
 * until the task's next switch (for good on a task that never sleeps).
 * Every open after which the task took faults without sleeping must have
 * counted some; the kernel also warns at the tick if the running task's
 * context is not in.  Probabilistic: many opens against many switch-ins.
 */
TEST(open_while_the_task_switches_in_counts_while_it_runs)
{
	unsigned long p0, s0, opens = 0, checked = 0;
	struct timespec start, now;
	struct perfev_value v;
	struct runner_test t;
	int fd;

	if (perfev_nr_cpus() < 2)
		SKIP(return, "needs two online CPUs");
	ASSERT_EQ(0, runner_start(&t, 30));
	clock_gettime(CLOCK_MONOTONIC, &start);
	do {
		/* no ASSERT until the child is stopped: it would run on */
		fd = open_pf(t.pid, -1, false);
		EXPECT_GE(fd, 0) TH_LOG("errno %d", errno);
		if (fd < 0)
			break;
		opens++;
		s0 = t.r->sleeps;
		p0 = t.r->progress;
		/* let it fault a little; give up if it goes to sleep first */
		while (t.r->progress < p0 + 20 && t.r->sleeps == s0)
			;
		memset(&v, 0, sizeof(v));
		EXPECT_EQ(0, perfev_read_value(fd, &v));
		if (t.r->sleeps == s0) {
			/* it ran all along since the open: it was counted */
			checked++;
			EXPECT_GT(v.value, 0ULL) TH_LOG("open %lu missed a running task", opens);
		}
		close(fd);
		clock_gettime(CLOCK_MONOTONIC, &now);
		/* 3 s, or up to 20 s on a host too busy to let it run a while */
	} while (now.tv_sec - start.tv_sec < 3 || (!checked && now.tv_sec - start.tv_sec < 20));
	EXPECT_EQ(0, runner_stop(&t));
	TH_LOG("%lu opens, %lu checked while it ran", opens, checked);
	EXPECT_GT(checked, 0UL);
}

#define MANY	2000

TEST(thousands_of_events_open_and_close)
{
	struct rlimit rl;
	int *fds, round, i, mismatch = 0, first;
	__u64 count;

	ASSERT_EQ(0, getrlimit(RLIMIT_NOFILE, &rl));
	if (rl.rlim_cur < MANY + 64) {
		rl.rlim_cur = MANY + 64;
		if (rl.rlim_max < rl.rlim_cur)
			rl.rlim_max = rl.rlim_cur;
		if (setrlimit(RLIMIT_NOFILE, &rl))
			SKIP(return, "cannot raise RLIMIT_NOFILE to %d", MANY + 64);
	}
	fds = calloc(2 * MANY, sizeof(int));
	ASSERT_NE(NULL, fds);
	for (round = 0; round < 2; round++) {
		int *cur = fds + (round ? MANY : 0);

		for (i = 0; i < MANY; i++) {
			/* disabled: cheap to carry through context switches */
			cur[i] = perfev_open_self(PERF_TYPE_SOFTWARE,
						  PERF_COUNT_SW_PAGE_FAULTS, -1);
			ASSERT_GE(cur[i], 0) TH_LOG("round %d event %d: errno %d", round, i, errno);
			if (round && cur[i] != fds[i])
				mismatch++;
		}
		/* the newest one counts, the others stay at 0 */
		ASSERT_EQ(0, ioctl(cur[MANY - 1], PERF_EVENT_IOC_ENABLE, 0));
		ASSERT_EQ(0, perfev_touch_pages(8));
		ASSERT_EQ(0, ioctl(cur[MANY - 1], PERF_EVENT_IOC_DISABLE, 0));
		ASSERT_EQ(0, perfev_read_count(cur[MANY - 1], &count));
		EXPECT_GE(count, 8ULL);
		ASSERT_EQ(0, perfev_read_count(cur[0], &count));
		EXPECT_EQ(0ULL, count);
		for (i = 0; i < MANY; i++)
			ASSERT_EQ(0, close(cur[i]));
	}
	/* Closed events give their fd numbers back. */
	EXPECT_EQ(0, mismatch);
	first = open_pf(0, -1, false);
	EXPECT_EQ(fds[0], first);
	close(first);
	free(fds);
}

/* Concurrent read/ioctl/close. */
#define NFDS		8
#define NWORKERS	3

struct chaos {
	int fds[NFDS];
	volatile int stop;
	int bad_errno[NWORKERS + 1];
	int ops[NWORKERS + 1];
	int idx;
};

static bool sane(int err)
{
	return err == EBADF;
}

static void *worker(void *arg)
{
	struct chaos *c = arg;
	int me = __atomic_fetch_add(&c->idx, 1, __ATOMIC_RELAXED), i = me;
	__u64 buf[3];

	while (!c->stop) {
		int fd = __atomic_load_n(&c->fds[i++ % NFDS], __ATOMIC_RELAXED);
		int ret;

		switch (i % 4) {
		case 0:
			ret = read(fd, buf, sizeof(buf)) == 24 ? 0 : -1;
			break;
		case 1:
			ret = ioctl(fd, PERF_EVENT_IOC_ENABLE, 0);
			break;
		case 2:
			ret = ioctl(fd, PERF_EVENT_IOC_RESET, 0);
			break;
		default:
			ret = ioctl(fd, PERF_EVENT_IOC_DISABLE, 0);
			break;
		}
		if (ret && !sane(errno))
			c->bad_errno[me] = errno;
		c->ops[me]++;
	}
	return NULL;
}

TEST(concurrent_read_ioctl_close)
{
	pthread_t th[NWORKERS];
	struct chaos *c;
	__u64 deadline;
	struct timespec ts;
	int i, n = 0;

	c = calloc(1, sizeof(*c));
	ASSERT_NE(NULL, c);
	for (i = 0; i < NFDS; i++) {
		c->fds[i] = open_pf(0, -1, false);
		ASSERT_GE(c->fds[i], 0);
	}
	for (i = 0; i < NWORKERS; i++)
		ASSERT_EQ(0, pthread_create(&th[i], NULL, worker, c));
	clock_gettime(CLOCK_MONOTONIC, &ts);
	deadline = ts.tv_sec * 1000ULL + ts.tv_nsec / 1000000 + 400;
	do {
		int k = n++ % NFDS, old = c->fds[k], fd;

		ASSERT_EQ(0, close(old));
		fd = open_pf(0, -1, false);
		ASSERT_GE(fd, 0);
		__atomic_store_n(&c->fds[k], fd, __ATOMIC_RELAXED);
		clock_gettime(CLOCK_MONOTONIC, &ts);
	} while (ts.tv_sec * 1000ULL + ts.tv_nsec / 1000000 < deadline);
	c->stop = 1;
	for (i = 0; i < NWORKERS; i++)
		ASSERT_EQ(0, pthread_join(th[i], NULL));
	for (i = 0; i < NWORKERS; i++) {
		EXPECT_EQ(0, c->bad_errno[i]) TH_LOG("worker %d: errno %d", i, c->bad_errno[i]);
		EXPECT_GT(c->ops[i], 0);
	}
	EXPECT_GT(n, 10);
	/* Every surviving event still works. */
	for (i = 0; i < NFDS; i++) {
		__u64 buf[3];

		EXPECT_EQ(24, read(c->fds[i], buf, sizeof(buf)));
		close(c->fds[i]);
	}
	free(c);
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

static int open_cpu_clock_on(int cpu)
{
	struct perf_event_attr attr;

	perfev_attr_init(&attr, PERF_TYPE_SOFTWARE, PERF_COUNT_SW_CPU_CLOCK);
	attr.disabled = 0;
	return perfev_open(&attr, -1, cpu, -1, 0);
}

TEST_F(hotplug, percpu_event_stops_when_cpu_goes_offline)
{
	__u64 a, b, c, d;
	int fd, fd2;

	if (!self->can)
		SKIP(return, "cpu1 cannot be taken offline here");
	fd = open_cpu_clock_on(1);
	ASSERT_GE(fd, 0);
	usleep(20000);
	ASSERT_EQ(0, perfev_read_count(fd, &a));
	EXPECT_GT(a, 0ULL);	/* cpu-clock runs with the CPU, idle or not */

	if (perfev_write_int(CPU1_ONLINE, 0)) {
		close(fd);
		SKIP(return, "writing 0 to %s failed: errno %d", CPU1_ONLINE, errno);
	}
	ASSERT_EQ(0, perfev_read_count(fd, &b));
	EXPECT_GE(b, a);
	usleep(50000);
	ASSERT_EQ(0, perfev_read_count(fd, &c));
	EXPECT_EQ(b, c) TH_LOG("per-CPU event counted on an offline CPU");
	/* No new per-CPU events on an offline CPU. */
	EXPECT_EQ(-1, open_cpu_clock_on(1));
	EXPECT_EQ(ENODEV, errno);

	ASSERT_EQ(0, perfev_write_int(CPU1_ONLINE, 1));
	usleep(50000);
	/* 6.1 detached the event at offline and does not re-attach it. */
	ASSERT_EQ(0, perfev_read_count(fd, &d));
	EXPECT_EQ(c, d);
	/* A new event on the CPU counts again. */
	fd2 = open_cpu_clock_on(1);
	ASSERT_GE(fd2, 0);
	usleep(20000);
	ASSERT_EQ(0, perfev_read_count(fd2, &d));
	EXPECT_GT(d, 0ULL);
	close(fd2);
	close(fd);
}

TEST_F(hotplug, task_event_keeps_counting_across_offline)
{
	struct perfev_value a, b;
	cpu_set_t set;
	int fd;

	if (!self->can)
		SKIP(return, "cpu1 cannot be taken offline here");
	CPU_ZERO(&set);
	CPU_SET(1, &set);
	ASSERT_EQ(0, sched_setaffinity(0, sizeof(set), &set));
	fd = open_pf(0, -1, false);
	ASSERT_GE(fd, 0);
	ASSERT_EQ(0, perfev_touch_pages(16));
	ASSERT_EQ(0, perfev_read_value(fd, &a));
	EXPECT_GE(a.value, 16ULL);
	/* Taking our only CPU away migrates us; the task event follows. */
	if (perfev_write_int(CPU1_ONLINE, 0)) {
		close(fd);
		SKIP(return, "writing 0 to %s failed: errno %d", CPU1_ONLINE, errno);
	}
	EXPECT_NE(1, sched_getcpu());
	ASSERT_EQ(0, perfev_touch_pages(16));
	ASSERT_EQ(0, perfev_read_value(fd, &b));
	EXPECT_GE(b.value - a.value, 16ULL);
	EXPECT_LT(b.value - a.value, 16ULL + 1000);
	ASSERT_EQ(0, perfev_write_int(CPU1_ONLINE, 1));
	close(fd);
}

/*
 * Forks that inherit a tracepoint event (the child's copy is initialised
 * under the tracing event_mutex while the fork holds a context mutex)
 * while another process takes cpu1 offline and online (the hotplug
 * callbacks take the CPU context's mutex): no deadlock, no lockdep
 * report, and the inherited counts fold back into the parent's event.
 */
TEST_F(hotplug, forks_inherit_a_tracepoint_event_while_cpu1_goes_off_and_on)
{
	struct perf_event_attr attr;
	int id, fd, i, status, forks = 0;
	volatile int *stop;
	__u64 count = 0;
	pid_t toggler, pid;

	if (!self->can)
		SKIP(return, "cpu1 cannot be taken offline here");
	id = perfev_tracepoint_id("sched", "sched_process_fork");
	if (id < 0)
		SKIP(return, "no sched:sched_process_fork tracepoint");
	stop = mmap(NULL, pgsz(), PROT_READ | PROT_WRITE, MAP_SHARED | MAP_ANONYMOUS, -1, 0);
	ASSERT_NE(MAP_FAILED, stop);
	perfev_attr_init(&attr, PERF_TYPE_TRACEPOINT, id);
	attr.inherit = 1;
	attr.disabled = 0;
	fd = perfev_open(&attr, 0, -1, -1, 0);
	ASSERT_GE(fd, 0) TH_LOG("errno %d", errno);

	toggler = fork();
	ASSERT_GE(toggler, 0);
	if (toggler == 0) {
		for (i = 0; i < 6 && !*stop; i++) {
			if (perfev_write_int(CPU1_ONLINE, 0) || perfev_write_int(CPU1_ONLINE, 1))
				_exit(1);
		}
		_exit(0);
	}
	for (i = 0; i < 200; i++) {
		pid = fork();
		if (pid < 0)
			break;
		if (pid == 0) {
			/* a grandchild too: its copy is inherited from a copy */
			pid = fork();
			if (pid > 0)
				waitpid(pid, NULL, 0);
			_exit(0);
		}
		forks++;
		waitpid(pid, NULL, 0);
		if (waitpid(toggler, &status, WNOHANG) == toggler) {
			toggler = 0;
			break;
		}
	}
	*stop = 1;
	if (toggler > 0)
		EXPECT_EQ(toggler, waitpid(toggler, &status, 0));
	EXPECT_TRUE(WIFEXITED(status) && WEXITSTATUS(status) == 0);
	ASSERT_EQ(0, perfev_read_count(fd, &count));
	/* each fork of this task and of each child counted */
	EXPECT_GE(count, (__u64)forks * 2);
	close(fd);
	munmap((void *)stop, pgsz());
}

TEST_HARNESS_MAIN
