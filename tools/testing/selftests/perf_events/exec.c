// SPDX-License-Identifier: GPL-2.0
/*
 * perf events across execve().
 *
 * Covers: enable_on_exec (a disabled event on a child counts nothing and
 * accumulates no time_enabled before exec, then counts the new image; it
 * fires once, a second exec does not re-enable it, a failed execve() does
 * not count as one (nor for remove_on_exec); an inherited copy is
 * enabled by the child's exec only; a leader with enable_on_exec starts its
 * whole group); remove_on_exec (the event is detached from the task at
 * exec, the fd stays readable with the pre-exec count, poll() reports
 * POLLHUP, unflagged events on the same task keep counting; with inherit
 * the child's pre-exec count is folded into the parent while the parent
 * itself keeps counting); enable_on_exec together with remove_on_exec is
 * EINVAL; an event without either survives exec and keeps counting;
 * PERF_RECORD_COMM at exec carries PERF_RECORD_MISC_COMM_EXEC (6.1 sets the
 * bit whether or not attr.comm_exec is set), pid/tid of the task and the
 * new comm (basename of the exec path), NUL-padded to 8 bytes, while a
 * prctl(PR_SET_NAME) rename has misc 0; an enable_on_exec comm event sees
 * the exec COMM record, a remove_on_exec one does not.
 *
 * The exec target is this test binary itself: a constructor recognises
 * PERFEV_EXEC_* in the environment, runs a page-touching workload and exits
 * before the harness's main() runs.
 */
#define _GNU_SOURCE
#include <fcntl.h>
#include <limits.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/prctl.h>
#include <sys/wait.h>

#include "../kselftest_harness.h"
#include "perfev.h"
#include "perfev_ring.h"

#define RF_TIMES	(PERF_FORMAT_TOTAL_TIME_ENABLED | PERF_FORMAT_TOTAL_TIME_RUNNING)
#define PRE_PAGES	400	/* touched by the child before exec */
#define POST_PAGES	50	/* touched by the new image */
#define RENAME		"perfev-renamed"

static char self_exe[PATH_MAX];

/*
 * Runs in every exec'd image.  PERFEV_EXEC_PAGES=n: touch n pages;
 * PERFEV_EXEC_SYNC=w,r: then write a byte to fd w and wait for one on fd r;
 * PERFEV_EXEC_NAME=s: then prctl(PR_SET_NAME, s); PERFEV_EXEC_AGAIN=k: then
 * exec itself again k more times.  Exits without returning to main().
 */
static void __attribute__((constructor)) exec_workload(void)
{
	const char *pages = getenv("PERFEV_EXEC_PAGES");
	const char *sync = getenv("PERFEV_EXEC_SYNC");
	const char *name = getenv("PERFEV_EXEC_NAME");
	const char *again = getenv("PERFEV_EXEC_AGAIN");
	char buf[16], c = 'B';
	int w, r;

	if (!pages)
		return;
	if (atoi(pages) > 0 && perfev_touch_pages(atoi(pages)))
		_exit(10);
	if (sync) {
		if (sscanf(sync, "%d,%d", &w, &r) != 2 || write(w, &c, 1) != 1 ||
		    read(r, &c, 1) != 1)
			_exit(11);
	}
	if (name && prctl(PR_SET_NAME, name, 0, 0, 0))
		_exit(12);
	if (again && atoi(again) > 0) {
		snprintf(buf, sizeof(buf), "%d", atoi(again) - 1);
		setenv("PERFEV_EXEC_AGAIN", buf, 1);
		execl("/proc/self/exe", "exec-again", NULL);
		_exit(13);
	}
	_exit(0);
}

struct exec_child {
	pid_t pid;
	int go;		/* parent writes: release the next step */
	int ready;	/* parent reads: the step is done */
};

struct exec_opts {
	int pre;	/* pages before exec */
	int post;	/* pages after exec */
	bool sync;	/* the new image reports and waits after its work */
	int again;	/* further re-execs */
	const char *name;	/* PR_SET_NAME after the work */
	bool failed_exec;	/* first an execve() that fails, then report and wait */
};

static const char *exe_path(void)
{
	ssize_t n;

	if (!self_exe[0]) {
		n = readlink("/proc/self/exe", self_exe, sizeof(self_exe) - 1);
		if (n < 0)
			return NULL;
		self_exe[n] = 0;
	}
	return self_exe;
}

/*
 * Fork a child that waits for a go byte, touches o->pre pages, reports
 * (one byte on ready), waits for the next go byte and execs this binary.
 */
static int exec_child_start(struct exec_child *c, const struct exec_opts *o)
{
	int go[2], ready[2];
	char buf[32], ch;
	const char *path = exe_path();

	if (!path || pipe(go) || pipe(ready))
		return -1;
	c->pid = fork();
	if (c->pid < 0)
		return -1;
	if (c->pid == 0) {
		close(go[1]);
		close(ready[0]);
		if (read(go[0], &ch, 1) != 1)
			_exit(20);
		if (o->pre && perfev_touch_pages(o->pre))
			_exit(21);
		if (write(ready[1], &ch, 1) != 1 || read(go[0], &ch, 1) != 1)
			_exit(22);
		if (o->failed_exec) {
			execl("/nonexistent/perfev", "perfev", NULL);
			if (errno != ENOENT)
				_exit(24);
			if (write(ready[1], &ch, 1) != 1 || read(go[0], &ch, 1) != 1)
				_exit(25);
		}
		snprintf(buf, sizeof(buf), "%d", o->post);
		setenv("PERFEV_EXEC_PAGES", buf, 1);
		if (o->sync) {
			snprintf(buf, sizeof(buf), "%d,%d", ready[1], go[0]);
			setenv("PERFEV_EXEC_SYNC", buf, 1);
		}
		if (o->name)
			setenv("PERFEV_EXEC_NAME", o->name, 1);
		snprintf(buf, sizeof(buf), "%d", o->again);
		setenv("PERFEV_EXEC_AGAIN", buf, 1);
		execl(path, path, NULL);
		_exit(23);
	}
	close(go[0]);
	close(ready[1]);
	c->go = go[1];
	c->ready = ready[0];
	return 0;
}

/* Release one step and wait until the child reports it done. */
static int exec_child_step(struct exec_child *c)
{
	char ch = 'G';

	if (write(c->go, &ch, 1) != 1)
		return -1;
	return read(c->ready, &ch, 1) == 1 ? 0 : -1;
}

/* Release the last step and reap the child; returns its exit status. */
static int exec_child_finish(struct exec_child *c)
{
	char ch = 'G';
	int status;

	if (write(c->go, &ch, 1) != 1)
		return -1;
	close(c->go);
	close(c->ready);
	if (waitpid(c->pid, &status, 0) != c->pid)
		return -1;
	return WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
}

static int open_pf(pid_t pid, bool disabled, bool enable_on_exec, bool remove_on_exec,
		   bool inherit, int group_fd)
{
	struct perf_event_attr attr;

	perfev_attr_init(&attr, PERF_TYPE_SOFTWARE, PERF_COUNT_SW_PAGE_FAULTS);
	attr.read_format = RF_TIMES;
	attr.disabled = disabled;
	attr.enable_on_exec = enable_on_exec;
	attr.remove_on_exec = remove_on_exec;
	attr.inherit = inherit;
	return perfev_open(&attr, pid, -1, group_fd, 0);
}

TEST(enable_on_exec_counts_from_exec)
{
	struct exec_opts o = { .pre = PRE_PAGES, .post = POST_PAGES };
	struct exec_child c;
	struct perfev_value v;
	int fd;

	ASSERT_EQ(0, exec_child_start(&c, &o));
	fd = open_pf(c.pid, true, true, false, false, -1);
	ASSERT_GE(fd, 0);
	ASSERT_EQ(0, exec_child_step(&c));	/* pre-exec work done */
	ASSERT_EQ(0, perfev_read_value(fd, &v));
	EXPECT_EQ(0ULL, v.value);
	EXPECT_EQ(0ULL, v.enabled);
	EXPECT_EQ(0ULL, v.running);
	ASSERT_EQ(0, exec_child_finish(&c));
	ASSERT_EQ(0, perfev_read_value(fd, &v));
	/* the new image: its POST_PAGES plus loader/startup faults only */
	EXPECT_GE(v.value, (__u64)POST_PAGES);
	EXPECT_LT(v.value, (__u64)PRE_PAGES - 50);
	EXPECT_GT(v.enabled, 0ULL);
	EXPECT_EQ(v.enabled, v.running);
	close(fd);
}

TEST(enable_on_exec_fires_once)
{
	struct exec_opts o = { .pre = 0, .post = POST_PAGES, .sync = true, .again = 1 };
	struct perfev_value v1, v2;
	struct exec_child c;
	int fd;

	ASSERT_EQ(0, exec_child_start(&c, &o));
	fd = open_pf(c.pid, true, true, false, false, -1);
	ASSERT_GE(fd, 0);
	ASSERT_EQ(0, exec_child_step(&c));	/* pre */
	ASSERT_EQ(0, exec_child_step(&c));	/* first exec + work */
	ASSERT_EQ(0, perfev_read_value(fd, &v1));
	EXPECT_GE(v1.value, (__u64)POST_PAGES);
	ASSERT_EQ(0, ioctl(fd, PERF_EVENT_IOC_DISABLE, 0));
	ASSERT_EQ(0, perfev_read_value(fd, &v1));
	ASSERT_EQ(0, exec_child_step(&c));	/* second exec + work */
	ASSERT_EQ(0, perfev_read_value(fd, &v2));
	EXPECT_EQ(v1.value, v2.value);		/* not re-enabled */
	EXPECT_EQ(v1.enabled, v2.enabled);
	ASSERT_EQ(0, exec_child_finish(&c));
	close(fd);
}

/*
 * All enable_on_exec events of a task are enabled at one instant of its
 * context's clock (one pass, as 6.1's perf_event_enable_on_exec()), and at
 * its exit all stop at one instant: so every one has the same
 * time_enabled, to the nanosecond.
 */
TEST(enable_on_exec_enables_every_event_at_one_instant)
{
	struct exec_opts o = { .pre = 0, .post = POST_PAGES };
	struct perfev_value v[8];
	struct exec_child c;
	int fds[8], i;

	ASSERT_EQ(0, exec_child_start(&c, &o));
	for (i = 0; i < 8; i++) {
		fds[i] = open_pf(c.pid, true, true, false, false, -1);
		ASSERT_GE(fds[i], 0);
	}
	ASSERT_EQ(0, exec_child_step(&c));
	ASSERT_EQ(0, exec_child_finish(&c));
	for (i = 0; i < 8; i++) {
		ASSERT_EQ(0, perfev_read_value(fds[i], &v[i]));
		EXPECT_GT(v[i].enabled, 0ULL);
		EXPECT_EQ(v[0].enabled, v[i].enabled)
			TH_LOG("event %d enabled %llu, event 0 %llu", i,
			       (unsigned long long)v[i].enabled, (unsigned long long)v[0].enabled);
		close(fds[i]);
	}
}

TEST(failed_exec_does_not_trigger)
{
	struct exec_opts o = { .pre = POST_PAGES, .post = POST_PAGES, .failed_exec = true };
	struct perfev_value v0, v1, v2;
	struct exec_child c;
	int en, rm;

	ASSERT_EQ(0, exec_child_start(&c, &o));
	en = open_pf(c.pid, true, true, false, false, -1);
	ASSERT_GE(en, 0);
	rm = open_pf(c.pid, false, false, true, false, -1);
	ASSERT_GE(rm, 0);
	ASSERT_EQ(0, exec_child_step(&c));	/* pre work */
	ASSERT_EQ(0, perfev_read_value(rm, &v0));
	ASSERT_EQ(0, exec_child_step(&c));	/* execve() -> ENOENT */
	ASSERT_EQ(0, perfev_read_value(en, &v1));
	EXPECT_EQ(0ULL, v1.value);		/* still waiting for a real exec */
	EXPECT_EQ(0ULL, v1.enabled);
	ASSERT_EQ(0, exec_child_finish(&c));	/* the real exec */
	ASSERT_EQ(0, perfev_read_value(en, &v1));
	EXPECT_GE(v1.value, (__u64)POST_PAGES);
	ASSERT_EQ(0, perfev_read_value(rm, &v2));
	/* rm was still attached after the failed exec, removed at the real one */
	EXPECT_GE(v2.value, v0.value);
	EXPECT_LT(v2.value, v0.value + 100);
	close(rm);
	close(en);
}

TEST(enable_on_exec_inherited_copy)
{
	struct exec_opts o = { .pre = PRE_PAGES, .post = POST_PAGES };
	struct exec_child c;
	struct perfev_value v;
	int fd;

	/* On this (never exec'ing) task, inherited by the child at fork. */
	fd = open_pf(0, true, true, false, true, -1);
	ASSERT_GE(fd, 0);
	ASSERT_EQ(0, exec_child_start(&c, &o));
	ASSERT_EQ(0, exec_child_step(&c));
	ASSERT_EQ(0, perfev_touch_pages(PRE_PAGES));	/* parent: not counted */
	ASSERT_EQ(0, perfev_read_value(fd, &v));
	EXPECT_EQ(0ULL, v.value);
	ASSERT_EQ(0, exec_child_finish(&c));
	ASSERT_EQ(0, perfev_read_value(fd, &v));
	/* only the child's new image, folded back at its exit */
	EXPECT_GE(v.value, (__u64)POST_PAGES);
	EXPECT_LT(v.value, (__u64)PRE_PAGES - 50);
	ASSERT_EQ(0, perfev_touch_pages(64));
	ASSERT_EQ(0, perfev_read_value(fd, &v));
	EXPECT_LT(v.value, (__u64)PRE_PAGES - 50);	/* parent's copy still off */
	close(fd);
}

TEST(enable_on_exec_leader_starts_group)
{
	struct exec_opts o = { .pre = PRE_PAGES, .post = POST_PAGES };
	struct perfev_value vl, vs;
	struct exec_child c;
	int leader, sib;

	ASSERT_EQ(0, exec_child_start(&c, &o));
	leader = open_pf(c.pid, true, true, false, false, -1);
	ASSERT_GE(leader, 0);
	sib = open_pf(c.pid, false, false, false, false, leader);
	ASSERT_GE(sib, 0);
	ASSERT_EQ(0, exec_child_step(&c));
	ASSERT_EQ(0, perfev_read_value(sib, &vs));
	EXPECT_EQ(0ULL, vs.value);
	ASSERT_EQ(0, exec_child_finish(&c));
	ASSERT_EQ(0, perfev_read_value(leader, &vl));
	ASSERT_EQ(0, perfev_read_value(sib, &vs));
	EXPECT_GE(vl.value, (__u64)POST_PAGES);
	EXPECT_LT(vl.value, (__u64)PRE_PAGES - 50);
	EXPECT_EQ(vl.value, vs.value);
	close(sib);
	close(leader);
}

TEST(remove_on_exec_freezes_count)
{
	struct exec_opts o = { .pre = POST_PAGES, .post = PRE_PAGES };
	struct perfev_value v0, v1, v2;
	struct perfev_ring r;
	struct exec_child c;
	int fd, keep;

	ASSERT_EQ(0, exec_child_start(&c, &o));
	fd = open_pf(c.pid, false, false, true, false, -1);
	ASSERT_GE(fd, 0);
	keep = open_pf(c.pid, false, false, false, false, -1);	/* no flag */
	ASSERT_GE(keep, 0);
	ASSERT_EQ(0, perfev_ring_map(&r, fd, 1, false));
	ASSERT_EQ(0, exec_child_step(&c));
	ASSERT_EQ(0, perfev_read_value(fd, &v0));
	EXPECT_GE(v0.value, (__u64)POST_PAGES);
	EXPECT_EQ(0, perfev_ring_wait(fd, 0));		/* alive: nothing to report */
	ASSERT_EQ(0, exec_child_finish(&c));
	ASSERT_EQ(0, perfev_read_value(fd, &v1));
	/* only what happened between the report and the exec point */
	EXPECT_GE(v1.value, v0.value);
	EXPECT_LT(v1.value, v0.value + 100);
	EXPECT_EQ(POLLHUP, perfev_ring_wait(fd, 0) & (POLLHUP | POLLIN));
	/* the unflagged event on the same task went on counting */
	ASSERT_EQ(0, perfev_read_value(keep, &v2));
	EXPECT_GE(v2.value, v0.value + PRE_PAGES);
	/* a removed event cannot be revived */
	EXPECT_EQ(0, ioctl(fd, PERF_EVENT_IOC_ENABLE, 0));
	ASSERT_EQ(0, perfev_read_value(fd, &v2));
	EXPECT_EQ(v1.value, v2.value);
	perfev_ring_unmap(&r);
	close(keep);
	close(fd);
}

TEST(remove_on_exec_with_inherit)
{
	struct exec_opts o = { .pre = POST_PAGES, .post = PRE_PAGES };
	struct perfev_value v0, v1, v2;
	struct exec_child c;
	int fd;

	fd = open_pf(0, true, false, true, true, -1);
	ASSERT_GE(fd, 0);
	ASSERT_EQ(0, exec_child_start(&c, &o));
	ASSERT_EQ(0, ioctl(fd, PERF_EVENT_IOC_ENABLE, 0));	/* parent and child copy */
	ASSERT_EQ(0, exec_child_step(&c));
	ASSERT_EQ(0, perfev_read_value(fd, &v0));
	EXPECT_GE(v0.value, (__u64)POST_PAGES);	/* live child copy is summed in */
	ASSERT_EQ(0, exec_child_finish(&c));
	ASSERT_EQ(0, perfev_read_value(fd, &v1));
	/* the child's copy went away at exec: its new image is not counted */
	EXPECT_GE(v1.value, v0.value);
	EXPECT_LT(v1.value, v0.value + 100);
	/* the parent never exec'd: its own event is intact */
	ASSERT_EQ(0, perfev_touch_pages(64));
	ASSERT_EQ(0, perfev_read_value(fd, &v2));
	EXPECT_GE(v2.value, v1.value + 64);
	close(fd);
}

TEST(enable_and_remove_on_exec_einval)
{
	int fd = open_pf(0, true, true, true, false, -1);

	EXPECT_EQ(-1, fd);
	EXPECT_EQ(EINVAL, errno);
	if (fd >= 0)
		close(fd);
}

TEST(plain_event_survives_exec)
{
	struct exec_opts o = { .pre = POST_PAGES, .post = POST_PAGES };
	struct perfev_value v0, v1;
	struct exec_child c;
	int fd;

	ASSERT_EQ(0, exec_child_start(&c, &o));
	fd = open_pf(c.pid, false, false, false, false, -1);
	ASSERT_GE(fd, 0);
	ASSERT_EQ(0, exec_child_step(&c));
	ASSERT_EQ(0, perfev_read_value(fd, &v0));
	EXPECT_GE(v0.value, (__u64)POST_PAGES);
	ASSERT_EQ(0, exec_child_finish(&c));
	ASSERT_EQ(0, perfev_read_value(fd, &v1));
	EXPECT_GE(v1.value, v0.value + POST_PAGES);
	EXPECT_LT(v1.value, v0.value + POST_PAGES + 300);
	EXPECT_EQ(v1.enabled, v1.running);
	close(fd);
}

/* Dummy event on @pid recording COMM only. */
static int open_comm(pid_t pid, bool comm_exec, bool enable_on_exec, bool remove_on_exec)
{
	struct perf_event_attr attr;

	perfev_attr_init(&attr, PERF_TYPE_SOFTWARE, PERF_COUNT_SW_DUMMY);
	attr.comm = 1;
	attr.comm_exec = comm_exec;
	attr.disabled = enable_on_exec;
	attr.enable_on_exec = enable_on_exec;
	attr.remove_on_exec = remove_on_exec;
	return perfev_open(&attr, pid, -1, -1, 0);
}

struct comm_rec {
	struct perf_event_header h;
	__u32 pid, tid;
	char comm[];
};

/* Check one COMM record: layout, pid/tid, misc and the name. */
static void check_comm(struct __test_metadata *_metadata, struct perf_event_header *h,
		       pid_t pid, __u16 misc, const char *name)
{
	struct comm_rec *rec = (struct comm_rec *)h;
	size_t len = strlen(name), i;

	ASSERT_NE(NULL, h);
	ASSERT_EQ((__u32)PERF_RECORD_COMM, h->type);
	EXPECT_EQ(misc, h->misc);
	/* header, pid, tid, comm with NUL padded to 8 (no sample_id_all) */
	ASSERT_EQ(sizeof(*rec) + ((len + 1 + 7) & ~(size_t)7), (size_t)h->size);
	EXPECT_EQ((__u32)pid, rec->pid);
	EXPECT_EQ((__u32)pid, rec->tid);
	EXPECT_EQ(0, memcmp(rec->comm, name, len));
	for (i = len; i < h->size - sizeof(*rec); i++)
		EXPECT_EQ(0, rec->comm[i]);
}

static void exe_comm(char *comm)
{
	const char *p = strrchr(exe_path(), '/');
	const char *b = p ? p + 1 : exe_path();
	size_t n = strlen(b);

	if (n > 15)	/* TASK_COMM_LEN - 1 */
		n = 15;
	memcpy(comm, b, n);
	comm[n] = 0;
}

TEST(comm_exec_record_at_exec)
{
	struct exec_opts o = { .pre = 0, .post = 1, .name = RENAME };
	struct exec_child c;
	struct perfev_ring r;
	char comm[16];
	int fd;

	exe_comm(comm);
	ASSERT_EQ(0, exec_child_start(&c, &o));
	fd = open_comm(c.pid, true, false, false);
	ASSERT_GE(fd, 0);
	ASSERT_EQ(0, perfev_ring_map(&r, fd, 4, false));
	ASSERT_EQ(0, exec_child_step(&c));
	EXPECT_EQ(0, perfev_ring_count(&r, PERF_RECORD_COMM));
	ASSERT_EQ(0, exec_child_finish(&c));
	ASSERT_EQ(2, perfev_ring_count(&r, PERF_RECORD_COMM));
	check_comm(_metadata, perfev_ring_find(&r, PERF_RECORD_COMM), c.pid,
		   PERF_RECORD_MISC_COMM_EXEC, comm);
	/* a prctl rename is a COMM without the exec bit */
	check_comm(_metadata, perfev_ring_find(&r, PERF_RECORD_COMM), c.pid, 0, RENAME);
	perfev_ring_unmap(&r);
	close(fd);
}

TEST(comm_without_comm_exec_still_flags_exec)
{
	struct exec_opts o = { .pre = 0, .post = 1 };
	struct exec_child c;
	struct perfev_ring r;
	char comm[16];
	int fd;

	exe_comm(comm);
	ASSERT_EQ(0, exec_child_start(&c, &o));
	fd = open_comm(c.pid, false, false, false);
	ASSERT_GE(fd, 0);
	ASSERT_EQ(0, perfev_ring_map(&r, fd, 4, false));
	ASSERT_EQ(0, exec_child_step(&c));
	ASSERT_EQ(0, exec_child_finish(&c));
	ASSERT_EQ(1, perfev_ring_count(&r, PERF_RECORD_COMM));
	/* attr.comm_exec only advertises the feature; misc is set regardless */
	check_comm(_metadata, perfev_ring_find(&r, PERF_RECORD_COMM), c.pid,
		   PERF_RECORD_MISC_COMM_EXEC, comm);
	perfev_ring_unmap(&r);
	close(fd);
}

TEST(exec_comm_seen_by_enable_on_exec_not_remove_on_exec)
{
	struct exec_opts o = { .pre = 0, .post = 1 };
	struct perfev_ring r1, r2;
	struct exec_child c;
	char comm[16];
	int en, rm;

	exe_comm(comm);
	ASSERT_EQ(0, exec_child_start(&c, &o));
	en = open_comm(c.pid, true, true, false);
	ASSERT_GE(en, 0);
	rm = open_comm(c.pid, true, false, true);
	ASSERT_GE(rm, 0);
	ASSERT_EQ(0, perfev_ring_map(&r1, en, 4, false));
	ASSERT_EQ(0, perfev_ring_map(&r2, rm, 4, false));
	ASSERT_EQ(0, exec_child_step(&c));
	ASSERT_EQ(0, exec_child_finish(&c));
	/* perf_event_exec() (enable, then remove) runs before the comm change */
	ASSERT_EQ(1, perfev_ring_count(&r1, PERF_RECORD_COMM));
	check_comm(_metadata, perfev_ring_find(&r1, PERF_RECORD_COMM), c.pid,
		   PERF_RECORD_MISC_COMM_EXEC, comm);
	EXPECT_EQ(0, perfev_ring_count(&r2, PERF_RECORD_COMM));
	perfev_ring_unmap(&r2);
	perfev_ring_unmap(&r1);
	close(rm);
	close(en);
}

TEST_HARNESS_MAIN
