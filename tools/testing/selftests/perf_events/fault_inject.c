// SPDX-License-Identifier: GPL-2.0
/*
 * Allocation failures inside perf_event_open() (fault injection).
 *
 * Covers: with the n-th slab allocation of the calling task made to fail
 * (/proc/thread-self/fail-nth, failslab), for every n that the open
 * reaches, the open either fails with ENOMEM and leaves nothing behind, or
 * succeeds with an event that counts; never a descriptor to an event that
 * was not installed.  Both a first event of a task (its context is
 * allocated too) and a group member are tried.  The same for mmap() of a
 * ring buffer, with a failing slab allocation and, separately, a failing
 * page allocation (fail_page_alloc, single pages included): ENOMEM and no
 * buffer left behind, or the buffer asked for.  And fork() of a task with
 * inherited events (a group among them), failing at each of its slab
 * allocations: ENOMEM with the parent's events counting on, or a child
 * whose counts fold into them.  Leaks are kmemleak's to
 * report (the debug kernel scans after the suite).
 *
 * Needs CONFIG_FAILSLAB / CONFIG_FAIL_PAGE_ALLOC with
 * CONFIG_FAULT_INJECTION_DEBUG_FS (the debug configuration; SLOB kernels
 * have no failslab) and SKIPs without them.
 */
#define _GNU_SOURCE
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/mman.h>
#include <sys/wait.h>

#include "../kselftest_harness.h"
#include "perfev.h"

#define FAILSLAB	"/sys/kernel/debug/failslab"
#define FAIL_PAGE_ALLOC	"/sys/kernel/debug/fail_page_alloc"
#define MAX_NTH		200
#define MAX_NTH_FORK	1000	/* a fork allocates for the mm, files, signals... */

static int write_str(const char *path, const char *val)
{
	int fd = open(path, O_WRONLY);
	ssize_t n;

	if (fd < 0)
		return -1;
	n = write(fd, val, strlen(val));
	close(fd);
	return n == (ssize_t)strlen(val) ? 0 : -1;
}

static int read_str(const char *path, char *buf, size_t len)
{
	int fd = open(path, O_RDONLY);
	ssize_t n;

	if (fd < 0)
		return -1;
	n = read(fd, buf, len - 1);
	close(fd);
	if (n < 0)
		return -1;
	buf[n] = 0;
	return 0;
}

/*
 * A fault-injection knob set (debugfs) aimed at what the calling thread's
 * fail-nth counts: GFP_KERNEL allocations too, no stack dump per failure;
 * @min_order (fail_page_alloc only) so that single pages count.  The
 * previous values go back at teardown.
 */
struct fault_knobs {
	const char	*dir;
	char		gfp_wait[16], verbose[16], min_order[16];
	bool		ready;
};

static int knob_path(char *buf, size_t len, const char *dir, const char *knob)
{
	return snprintf(buf, len, "%s/%s", dir, knob) >= (int)len ? -1 : 0;
}

static int knobs_arm(struct fault_knobs *k, const char *dir, bool pages)
{
	char path[128];

	k->dir = dir;
	k->min_order[0] = 0;
	if (access("/proc/thread-self/fail-nth", W_OK))
		return -1;
	if (knob_path(path, sizeof(path), dir, "ignore-gfp-wait") ||
	    read_str(path, k->gfp_wait, sizeof(k->gfp_wait)))
		return -1;
	if (knob_path(path, sizeof(path), dir, "verbose") ||
	    read_str(path, k->verbose, sizeof(k->verbose)))
		return -1;
	if (pages && (knob_path(path, sizeof(path), dir, "min-order") ||
		      read_str(path, k->min_order, sizeof(k->min_order))))
		return -1;
	knob_path(path, sizeof(path), dir, "ignore-gfp-wait");
	if (write_str(path, "N"))
		return -1;
	knob_path(path, sizeof(path), dir, "verbose");
	write_str(path, "0");
	if (pages) {
		knob_path(path, sizeof(path), dir, "min-order");
		write_str(path, "0");
	}
	k->ready = true;
	return 0;
}

static void knobs_restore(struct fault_knobs *k)
{
	char path[128];

	if (!k->ready)
		return;
	knob_path(path, sizeof(path), k->dir, "ignore-gfp-wait");
	write_str(path, k->gfp_wait);
	knob_path(path, sizeof(path), k->dir, "verbose");
	write_str(path, k->verbose);
	if (k->min_order[0]) {
		knob_path(path, sizeof(path), k->dir, "min-order");
		write_str(path, k->min_order);
	}
}

FIXTURE(failslab)
{
	struct fault_knobs knobs;
};

FIXTURE_SETUP(failslab)
{
	memset(&self->knobs, 0, sizeof(self->knobs));
	if (knobs_arm(&self->knobs, FAILSLAB, false))
		SKIP(return, "no failslab fault injection (CONFIG_FAILSLAB, debugfs)");
}

FIXTURE_TEARDOWN(failslab)
{
	knobs_restore(&self->knobs);
}

/* Page allocations only: failslab keeps ignoring GFP_KERNEL. */
FIXTURE(fail_page_alloc)
{
	struct fault_knobs knobs;
};

FIXTURE_SETUP(fail_page_alloc)
{
	memset(&self->knobs, 0, sizeof(self->knobs));
	if (knobs_arm(&self->knobs, FAIL_PAGE_ALLOC, true))
		SKIP(return, "no fail_page_alloc fault injection (CONFIG_FAIL_PAGE_ALLOC, debugfs)");
}

FIXTURE_TEARDOWN(fail_page_alloc)
{
	knobs_restore(&self->knobs);
}

/* Arm /proc/thread-self/fail-nth with @nth; the open file, or -1. */
static int arm_nth(int nth)
{
	char buf[16];
	int fail_fd = open("/proc/thread-self/fail-nth", O_RDWR);

	if (fail_fd < 0)
		return -1;
	snprintf(buf, sizeof(buf), "%d", nth);
	if (write(fail_fd, buf, strlen(buf)) != (ssize_t)strlen(buf)) {
		close(fail_fd);
		return -1;
	}
	return fail_fd;
}

/* Disarm; whether the n-th allocation happened since arm_nth(). */
static bool disarm_nth(int fail_fd)
{
	char buf[16] = "";
	bool reached = pread(fail_fd, buf, sizeof(buf) - 1, 0) > 0 && atoi(buf) == 0;

	if (write(fail_fd, "0", 1) != 1)
		reached = true;
	close(fail_fd);
	return reached;
}

/*
 * Open page-faults on this thread with its @nth slab allocation failing.
 * Returns the fd or -1 (errno kept); *@reached says whether the n-th
 * allocation happened within the call.
 */
static int open_failing_nth(int nth, int group_fd, bool *reached)
{
	struct perf_event_attr attr;
	int fd, err, fail_fd;

	perfev_attr_init(&attr, PERF_TYPE_SOFTWARE, PERF_COUNT_SW_PAGE_FAULTS);
	attr.disabled = 0;
	fail_fd = arm_nth(nth);
	if (fail_fd < 0)
		return -1;
	fd = perfev_open(&attr, 0, -1, group_fd, 0);
	err = errno;
	*reached = disarm_nth(fail_fd);
	errno = err;
	return fd;
}

/* Result codes of one try, from a child process. */
enum {
	TRY_CLEAN_FAIL, TRY_COUNTS, TRY_NOT_REACHED,
	TRY_SETUP = 10, TRY_BAD_ERRNO = 20, TRY_FAILED_UNREACHED, TRY_DEAD_EVENT = 30,
};

/*
 * In a fresh process (so that its first event allocates its context too),
 * open one event, as a group member if @grouped, with the @nth slab
 * allocation failing.
 */
static int try_nth(int nth, bool grouped)
{
	bool reached = false;
	int fd, leader = -1;
	__u64 count;

	if (grouped) {
		leader = perfev_open_self(PERF_TYPE_SOFTWARE, PERF_COUNT_SW_TASK_CLOCK, -1);
		if (leader < 0 || ioctl(leader, PERF_EVENT_IOC_ENABLE, 0))
			return TRY_SETUP;
	}
	fd = open_failing_nth(nth, leader, &reached);
	if (fd < 0) {
		if (!reached)
			return TRY_FAILED_UNREACHED;
		/* an injected failure, reported as such */
		return errno == ENOMEM ? TRY_CLEAN_FAIL : TRY_BAD_ERRNO;
	}
	/* it opened: whatever failed was not needed, and the event counts */
	count = 0;
	perfev_touch_pages(4);
	if (perfev_read_count(fd, &count) || count < 4)
		return TRY_DEAD_EVENT;
	return reached ? TRY_COUNTS : TRY_NOT_REACHED;
}

/*
 * In a fresh process: map an event's ring buffer (1 + 2 pages) with the
 * @nth slab allocation failing.  A failed mmap must be ENOMEM and leave no
 * buffer behind (a mapping of another size works afterwards); one that
 * succeeds has the buffer it asked for.
 */
static int try_mmap_nth(int nth)
{
	size_t pg = sysconf(_SC_PAGESIZE);
	struct perf_event_mmap_page *up;
	int fd, fail_fd, err;
	bool reached;

	fd = perfev_open_self(PERF_TYPE_SOFTWARE, PERF_COUNT_SW_TASK_CLOCK, -1);
	if (fd < 0)
		return TRY_SETUP;
	fail_fd = arm_nth(nth);
	if (fail_fd < 0)
		return TRY_SETUP;
	up = mmap(NULL, 3 * pg, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
	err = errno;
	reached = disarm_nth(fail_fd);
	if (up == MAP_FAILED) {
		if (!reached)
			return TRY_FAILED_UNREACHED;
		if (err != ENOMEM)
			return TRY_BAD_ERRNO;
		up = mmap(NULL, 5 * pg, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
		if (up == MAP_FAILED || up->data_size != 4 * pg)
			return TRY_DEAD_EVENT;
		return TRY_CLEAN_FAIL;
	}
	if (up->data_size != 2 * pg || up->data_offset != pg)
		return TRY_DEAD_EVENT;
	return reached ? TRY_COUNTS : TRY_NOT_REACHED;
}

/* Inherited, enabled, on the calling task; -1 on error. */
static int open_inherited(__u64 config, int group_fd)
{
	struct perf_event_attr attr;

	perfev_attr_init(&attr, PERF_TYPE_SOFTWARE, config);
	attr.disabled = 0;
	attr.inherit = 1;
	return perfev_open(&attr, 0, -1, group_fd, 0);
}

/*
 * In a fresh process holding inherited events (a group of two and a
 * single one): fork() with the @nth slab allocation of the fork failing,
 * in the perf core's copy of the events or anywhere else.  A failed fork
 * is ENOMEM and leaves the parent's events counting; a child that was
 * made counts into them (its faults fold in at its exit).
 */
static int try_fork_nth(int nth)
{
	int leader, member, single, fail_fd, err, status;
	__u64 before, after, m_before, m_after;
	bool reached;
	pid_t pid;

	leader = open_inherited(PERF_COUNT_SW_TASK_CLOCK, -1);
	member = leader < 0 ? -1 : open_inherited(PERF_COUNT_SW_PAGE_FAULTS, leader);
	single = open_inherited(PERF_COUNT_SW_PAGE_FAULTS, -1);
	if (member < 0 || single < 0 || perfev_read_count(single, &before) ||
	    perfev_read_count(member, &m_before))
		return TRY_SETUP;
	fail_fd = arm_nth(nth);
	if (fail_fd < 0)
		return TRY_SETUP;
	pid = fork();
	if (pid == 0) {
		/* the child's own allocations fail no more */
		close(arm_nth(0));
		perfev_touch_pages(8);
		_exit(0);
	}
	err = errno;
	reached = disarm_nth(fail_fd);
	if (pid < 0) {
		if (!reached)
			return TRY_FAILED_UNREACHED;
		if (err != ENOMEM)
			return TRY_BAD_ERRNO;
		perfev_touch_pages(4);
		if (perfev_read_count(single, &after) || after < before + 4 ||
		    perfev_read_count(member, &m_after) || m_after < m_before + 4)
			return TRY_DEAD_EVENT;
		return TRY_CLEAN_FAIL;
	}
	if (waitpid(pid, &status, 0) != pid || !WIFEXITED(status) || WEXITSTATUS(status))
		return TRY_SETUP;
	if (perfev_read_count(single, &after) || after < before + 8 ||
	    perfev_read_count(member, &m_after) || m_after < m_before + 8)
		return TRY_DEAD_EVENT;
	return reached ? TRY_COUNTS : TRY_NOT_REACHED;
}

/* What one try does with its failing allocation. */
enum try_kind { TRY_OPEN_FIRST, TRY_OPEN_MEMBER, TRY_MMAP, TRY_FORK };

static int run_try(int nth, enum try_kind kind)
{
	int status;
	pid_t pid = fork();

	if (pid < 0)
		return -1;
	if (pid == 0) {
		if (kind == TRY_FORK)
			_exit(try_fork_nth(nth));
		_exit(kind == TRY_MMAP ? try_mmap_nth(nth) : try_nth(nth, kind == TRY_OPEN_MEMBER));
	}
	if (waitpid(pid, &status, 0) != pid || !WIFEXITED(status))
		return -1;
	return WEXITSTATUS(status);
}

/* vmalloc areas of @pages pages mapped to user space (/proc/vmallocinfo). */
static int user_vmalloc_areas(int pages)
{
	char line[512], tag[32];
	FILE *f = fopen("/proc/vmallocinfo", "r");
	int n = 0;

	if (!f)
		return -1;
	snprintf(tag, sizeof(tag), " pages=%d ", pages);
	while (fgets(line, sizeof(line), f))
		n += strstr(line, tag) && strstr(line, " user");
	fclose(f);
	return n;
}

/*
 * Whether ring buffers are one vmalloc area (CONFIG_PERF_USE_VMALLOC, which
 * the x86_64 debug configuration turns on): a mapping of 1 + 8 pages adds a
 * user-mappable vmalloc area of 9 pages.
 */
static bool ring_is_vmalloc(void)
{
	size_t pg = sysconf(_SC_PAGESIZE);
	int fd, before, after;
	void *p;

	fd = perfev_open_self(PERF_TYPE_SOFTWARE, PERF_COUNT_SW_TASK_CLOCK, -1);
	if (fd < 0)
		return false;
	before = user_vmalloc_areas(9);
	p = mmap(NULL, 9 * pg, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
	after = user_vmalloc_areas(9);
	if (p != MAP_FAILED)
		munmap(p, 9 * pg);
	close(fd);
	return p != MAP_FAILED && before >= 0 && after > before;
}

/*
 * Every n up to the first that the call does not reach.  @must_fail: some
 * injected failure has to fail the call (it does allocate what it needs).
 */
static void every_failure_is_clean(struct __test_metadata *_metadata, enum try_kind kind,
				   bool must_fail)
{
	int nth, ret = TRY_CLEAN_FAIL, failed = 0;

	int max = kind == TRY_FORK ? MAX_NTH_FORK : MAX_NTH;

	for (nth = 1; nth <= max; nth++) {
		ret = run_try(nth, kind);
		if (ret == TRY_NOT_REACHED)
			break;
		EXPECT_TRUE(ret == TRY_CLEAN_FAIL || ret == TRY_COUNTS)
			TH_LOG("allocation %d: result %d", nth, ret);
		failed += ret == TRY_CLEAN_FAIL;
	}
	EXPECT_EQ(TRY_NOT_REACHED, ret) TH_LOG("more than %d allocations", max);
	if (must_fail)
		EXPECT_GT(failed, 0);
	TH_LOG("%d allocations tried, %d failed the call", nth - 1, failed);
}

TEST_F(failslab, first_event_of_a_task_fails_cleanly_at_every_allocation)
{
	every_failure_is_clean(_metadata, TRY_OPEN_FIRST, true);
}

TEST_F(failslab, group_member_fails_cleanly_at_every_allocation)
{
	every_failure_is_clean(_metadata, TRY_OPEN_MEMBER, true);
}

TEST_F(failslab, ring_buffer_mmap_fails_cleanly_at_every_allocation)
{
	every_failure_is_clean(_metadata, TRY_MMAP, true);
}

/*
 * A fork of a task with inherited events (a group among them): wherever
 * its allocations fail, in the copy of the events or elsewhere in the
 * fork, the fork fails with ENOMEM, nothing of the half-made child's
 * events stays behind and the parent's events count on.  (A fork per
 * allocation: longer than the harness's default 30 s on a debug kernel.)
 */
TEST_F_TIMEOUT(failslab, fork_with_inherited_events_fails_cleanly_at_every_allocation, 300)
{
	every_failure_is_clean(_metadata, TRY_FORK, true);
}

/*
 * The buffer's pages: each one that cannot be had fails the mmap cleanly.
 * A vmalloc ring buffer (CONFIG_PERF_USE_VMALLOC) gets its pages from
 * vmalloc, whose bulk page allocation falls back to one page at a time:
 * a single failing page allocation never fails that mmap (6.1 the same),
 * so there every failure is still checked clean but none has to fail it.
 */
TEST_F(fail_page_alloc, ring_buffer_mmap_fails_cleanly_at_every_page)
{
	bool vmalloc_ring = ring_is_vmalloc();

	if (vmalloc_ring)
		TH_LOG("vmalloc ring buffers: a failed page is retried by vmalloc");
	every_failure_is_clean(_metadata, TRY_MMAP, !vmalloc_ring);
}

TEST_HARNESS_MAIN
